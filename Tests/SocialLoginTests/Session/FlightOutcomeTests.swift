import Foundation
import Testing

@testable import SocialLogin

/// What a refresh's outcome does to the session (``FlightOutcome/settlement``), and the
/// transitions of ``SessionLife`` that carry it out, as pure values: no actor, clock or store.
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

  // MARK: The transitions

  func life(signedInAt: Date? = nil) -> SessionLife {
    SessionLife(
      record: StoredSession(
        key: SessionKey(provider: .facebook, subject: "u1"),
        credential: Credential(accessToken: "at-1", refreshToken: "rt-1", expiresAt: nil),
        version: 1, signedInAt: signedInAt))
  }

  func degradation(unsaved: Credential?) -> Degradation {
    Degradation(
      failures: 1, retryAt: now, lastError: AuthError(.network, "down"), unsaved: unsaved)
  }

  @Test func aRecordTakenFromTheStoreKeepsTheTimeTheSessionCountsItsLifeFrom() {
    var life = life(signedInAt: now)
    life.take(
      StoredSession(
        key: life.record.key, credential: issued, version: 2, signedInAt: nil))
    #expect(life.record.version == 2)
    #expect(life.record.signedInAt == now)
  }

  @Test func aSignedOutSessionNeverComesBack() {
    var life = life()
    let ended = life.signOut(.userInitiated)
    let recovered = life.recover()
    let degraded = life.degrade(to: degradation(unsaved: nil))
    let endedAgain = life.signOut(.storageLost)
    #expect(ended != nil)
    #expect(recovered == nil && degraded == nil && endedAgain == nil)
    #expect(life.phase.signedOutReason == .userInitiated)
  }

  @Test func aLeaseIsKeptOnlyWithUnsavedTokensAndTakenOnce() {
    var life = life()
    let lease = NoLease()
    let keptWhileHealthy = life.keep(lease)
    _ = life.degrade(to: degradation(unsaved: nil))
    let keptWithNothingUnsaved = life.keep(lease)
    _ = life.degrade(to: degradation(unsaved: issued))
    let kept = life.keep(lease)
    let keptTwice = life.keep(lease)
    let taken = life.takeKeptLease()
    let takenTwice = life.takeKeptLease()
    #expect(!keptWhileHealthy && !keptWithNothingUnsaved && !keptTwice)
    #expect(kept && taken != nil && takenTwice == nil)
    #expect(life.phase.unsaved == issued)
  }

  @Test func aFlightLandsOnlyWhileItIsTheSessionsFlight() {
    var life = life()
    let first = RefreshFlight(refreshToken: "rt-1", waiter: RefreshWaiter(), elapsed: { .zero })
    let second = RefreshFlight(refreshToken: "rt-2", waiter: RefreshWaiter(), elapsed: { .zero })
    life.start(first)
    life.start(second)
    let landedFirst = life.land(first)
    let landedSecond = life.land(second)
    #expect(!landedFirst && landedSecond)
    #expect(life.phase.flight == nil)
  }
}

/// A lease that holds nothing: the transitions only carry it.
private struct NoLease: RefreshLease {
  func release() async {}
}
