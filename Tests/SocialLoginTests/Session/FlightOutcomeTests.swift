import Foundation
import Testing

@testable import SocialLogin

/// What a refresh's outcome does to the session (``FlightOutcome/settlement``), as a pure
/// value: no actor, clock or store.
@Suite struct FlightOutcomeTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let issued = Credential(accessToken: "at-2", refreshToken: "rt-2", expiresAt: nil)
  let refusal = AuthError(.signedOut, "refused", signOutReason: .refreshTokenRevoked)

  // MARK: The decision

  @Test func aDefinitiveRefusalSignsOutAndDeletesTheStoredCopy() {
    let settlement = FlightOutcome(provider: .refused(.refreshTokenRevoked, refusal)).settlement
    guard case .end(.refreshTokenRevoked, let error?, .delete) = settlement else {
      Issue.record("expected end(.refreshTokenRevoked) deleting, got \(settlement)")
      return
    }
    #expect(error.signOutReason == .refreshTokenRevoked)
  }

  @Test func aSiblingsNewerRecordThatServesOutweighsTheRefusal() {
    let settlement = FlightOutcome(
      provider: .refused(.refreshTokenRevoked, refusal), store: .adopted, kept: issued
    ).settlement
    guard case .recover(let serving, adopted: true) = settlement else {
      Issue.record("expected recover(adopted), got \(settlement)")
      return
    }
    #expect(serving == issued)
  }

  @Test func aStoreOutOfReachDegradesAndNeverSignsOut() {
    let down = AuthError(.storageFailed, "down")
    for provider: FlightOutcome.Provider in [
      .notAsked, .refused(.refreshTokenRevoked, refusal),
    ] {
      let settlement = FlightOutcome(provider: provider, store: .unavailable(down)).settlement
      guard case .degrade(_, nil, .same, serving: nil) = settlement else {
        Issue.record("expected degrade keeping what was unsaved, got \(settlement)")
        return
      }
    }
  }

  @Test func issuedTokensTheStoreCouldNotTakeAreKeptUnsaved() {
    let settlement = FlightOutcome(
      provider: .issued(problem: nil), store: .unavailable(AuthError(.storageFailed, "down")),
      kept: issued
    ).settlement
    guard case .degrade(_, nil, .these(let unsaved), serving: nil) = settlement else {
      Issue.record("expected degrade holding the issued tokens, got \(settlement)")
      return
    }
    #expect(unsaved == issued)
  }

  @Test func savedTokensRecoverAndUncheckedOnesServeDegraded() {
    let saved = FlightOutcome(provider: .issued(problem: nil), store: .saved, kept: issued)
    guard case .recover(let serving, adopted: false) = saved.settlement else {
      Issue.record("expected recover, got \(saved.settlement)")
      return
    }
    #expect(serving == issued)
    let problem = AuthError(.invalidToken, "keys")
    let unchecked = FlightOutcome(provider: .issued(problem: problem), store: .saved, kept: issued)
    guard case .degrade(_, nil, UnsavedTokens.none, let served?) = unchecked.settlement else {
      Issue.record("expected degrade serving the saved tokens, got \(unchecked.settlement)")
      return
    }
    #expect(served == issued)
  }

  @Test func aTransientProviderFailureDegradesUntilItsRetryTime() {
    let retryAt = now.addingTimeInterval(60)
    let settlement = FlightOutcome(
      provider: .unavailable(AuthError(.network, "down"), retryAfter: retryAt)
    ).settlement
    guard case .degrade(_, let retryAfter, .same, serving: nil) = settlement else {
      Issue.record("expected degrade, got \(settlement)")
      return
    }
    #expect(retryAfter == retryAt)
  }

  @Test func aRecordDeletedElsewhereEndsWithItsReasonWithoutDeletingAgain() {
    let settlement = FlightOutcome(
      provider: .issued(problem: nil), store: .deleted(.userInitiated), kept: issued
    ).settlement
    guard case .end(.userInitiated, nil, .alreadyGone) = settlement else {
      Issue.record("expected end(.userInitiated) leaving the store, got \(settlement)")
      return
    }
  }

  @Test func aLapsedLeaseWhoseNewerRecordDoesNotServeDegradesWithNothingUnsaved() {
    let settlement = FlightOutcome(
      provider: .issued(problem: nil), store: .fenced(AuthError(.storageConflict, "newer"))
    ).settlement
    guard case .degrade(_, nil, UnsavedTokens.none, serving: nil) = settlement else {
      Issue.record("expected degrade, got \(settlement)")
      return
    }
  }

  @Test func anInterruptedRefreshLeavesThePhaseWhateverTheStoreSaid() {
    let settlement = FlightOutcome(
      provider: .interrupted(CancellationError()), store: .deleted(.storageLost)
    ).settlement
    guard case .stay(let error) = settlement else {
      Issue.record("expected stay, got \(settlement)")
      return
    }
    #expect(error is CancellationError)
  }

  @Test func unsavedTokensResolveAgainstThoseHeldBefore() {
    let before = Credential(accessToken: "at-1", refreshToken: "rt-1", expiresAt: nil)
    #expect(UnsavedTokens.same.resolved(previous: before) == before)
    #expect(UnsavedTokens.none.resolved(previous: before) == nil)
    #expect(UnsavedTokens.these(issued).resolved(previous: before) == issued)
  }
}
