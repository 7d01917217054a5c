import Foundation
import Testing

@testable import SocialLogin

/// The session's phase and its decisions, as pure values: no actor, clock or store.
@Suite struct SessionPhaseTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func credential(expiresIn seconds: TimeInterval?, refreshToken: Secret? = "rt-1") -> Credential {
    Credential(
      accessToken: "at-1", refreshToken: refreshToken,
      expiresAt: seconds.map { now.addingTimeInterval($0) }, issuedAt: now)
  }

  func question(
    _ credential: Credential, minimumTTL: TimeInterval = 30, refreshes: Bool = true,
    lifetimeEnds: Double = .infinity
  ) -> RefreshQuestion {
    RefreshQuestion(
      credential: credential, now: now, minimumTTL: minimumTTL, providerRefreshes: refreshes,
      lifetimeEnds: lifetimeEnds)
  }

  func degraded(retryIn seconds: TimeInterval, unsaved: Credential? = nil) -> SessionHealth {
    .degraded(
      Degradation(
        failures: 1, retryAt: now.addingTimeInterval(seconds),
        lastError: AuthError(.network, "down"), unsaved: unsaved))
  }

  func flight(spending refreshToken: Secret? = "rt-1") -> RefreshFlight {
    RefreshFlight(refreshToken: refreshToken, waiter: RefreshWaiter(), elapsed: { .zero })
  }

  @Test func aSignedOutSessionAnswersItsReasonWhateverItsCredential() {
    let phase = SessionPhase.signedOut(.refreshTokenRevoked)
    guard
      case .signedOut(.refreshTokenRevoked) = phase.decide(question(credential(expiresIn: 3600)))
    else {
      Issue.record("expected signedOut")
      return
    }
  }

  @Test func theEndOfTheSessionsLifeComesBeforeAValidToken() {
    let decision = SessionPhase.fresh.decide(
      question(credential(expiresIn: 3600), lifetimeEnds: now.timeIntervalSince1970))
    guard case .end(.maximumLifetimeReached) = decision else {
      Issue.record("expected end(.maximumLifetimeReached), got \(decision)")
      return
    }
  }

  @Test func aHealthyTokenValidForTheMinimumTTLServes() {
    guard case .serve = SessionPhase.fresh.decide(question(credential(expiresIn: 31))) else {
      Issue.record("expected serve")
      return
    }
    guard case .serve = SessionPhase.fresh.decide(question(credential(expiresIn: nil))) else {
      Issue.record("a token without expiry serves")
      return
    }
  }

  @Test func aTokenShortOfTheMinimumTTLStartsARefresh() {
    guard case .start = SessionPhase.fresh.decide(question(credential(expiresIn: 29))) else {
      Issue.record("expected start")
      return
    }
  }

  @Test func withoutARefreshAWorkingTokenServesAndAnExpiredOneEnds() {
    for refreshes in [false, true] {
      let token: Secret? = refreshes ? nil : "rt-1"
      let working = SessionPhase.fresh.decide(
        question(credential(expiresIn: 5, refreshToken: token), refreshes: refreshes))
      guard case .serve = working else {
        Issue.record("a token that still works serves, got \(working)")
        return
      }
      let expired = SessionPhase.fresh.decide(
        question(credential(expiresIn: -1, refreshToken: token), refreshes: refreshes))
      guard case .end(.accessTokenExpired) = expired else {
        Issue.record("expected end(.accessTokenExpired), got \(expired)")
        return
      }
    }
  }

  @Test func degradedBeforeItsRetryTimeServesWhatWorksAndOtherwiseFailsFast() {
    let phase = SessionPhase.live(degraded(retryIn: 10), flight: nil)
    guard case .serve = phase.decide(question(credential(expiresIn: 5))) else {
      Issue.record("expected serve")
      return
    }
    let decision = phase.decide(question(credential(expiresIn: -1)))
    guard case .failFast(let error) = decision else {
      Issue.record("expected failFast, got \(decision)")
      return
    }
    #expect(error.code == .network)
    #expect(error.message == "down")
  }

  @Test func degradedAtItsRetryTimeStartsARefresh() {
    let phase = SessionPhase.live(degraded(retryIn: 0), flight: nil)
    guard case .start = phase.decide(question(credential(expiresIn: -1))) else {
      Issue.record("expected start")
      return
    }
  }

  @Test func unsavedTokensAreNeverServedOnceTheRetryTimeCame() {
    // The stored credential is still valid, but the provider issued newer tokens that wait to
    // be saved: the refresh (which saves them) comes first.
    let pending = credential(expiresIn: 3600, refreshToken: "rt-2")
    let phase = SessionPhase.live(degraded(retryIn: 0, unsaved: pending), flight: nil)
    guard case .start = phase.decide(question(credential(expiresIn: 3600), refreshes: false))
    else {
      Issue.record("expected start")
      return
    }
  }

  @Test func aCallerJoinsTheFlightSpendingTheSameRefreshToken() {
    let current = flight()
    let decision = SessionPhase.live(.healthy, flight: current).decide(
      question(credential(expiresIn: -1)))
    guard case .join(let joined) = decision else {
      Issue.record("expected join, got \(decision)")
      return
    }
    #expect(joined === current)
    let other = SessionPhase.live(.healthy, flight: flight(spending: "rt-0")).decide(
      question(credential(expiresIn: -1)))
    guard case .start = other else {
      Issue.record("a flight spending another refresh token is not joined, got \(other)")
      return
    }
  }

  @Test func anOverdueFlightIsStuckAndServesOnlyWhatWorks() {
    let current = flight()
    current.overdue = AuthError(.timedOut, "overdue")
    let phase = SessionPhase.live(.healthy, flight: current)
    for (expiresIn, serves) in [(5.0, true), (-1.0, false)] {
      let decision = phase.decide(question(credential(expiresIn: expiresIn)))
      guard case .stuck(let overdue, let serve) = decision else {
        Issue.record("expected stuck, got \(decision)")
        return
      }
      #expect(overdue.code == .timedOut)
      #expect(serve == serves)
    }
  }

  @Test func aForcedRefreshSkipsServingAndTheBackoffButNotTheFlight() {
    var forced = question(credential(expiresIn: 3600))
    forced.force = true
    guard case .start = SessionPhase.fresh.decide(forced) else {
      Issue.record("a valid token is refreshed when forced")
      return
    }
    guard case .start = SessionPhase.live(degraded(retryIn: 60), flight: nil).decide(forced) else {
      Issue.record("the backoff does not hold a forced refresh")
      return
    }
    let current = flight()
    guard case .join(let joined) = SessionPhase.live(.healthy, flight: current).decide(forced),
      joined === current
    else {
      Issue.record("a forced refresh joins the flight spending the same refresh token")
      return
    }
    var unrefreshable = question(credential(expiresIn: 3600, refreshToken: nil))
    unrefreshable.force = true
    guard case .cannotRefresh = SessionPhase.fresh.decide(unrefreshable) else {
      Issue.record("expected cannotRefresh")
      return
    }
    guard case .signedOut = SessionPhase.signedOut(.userInitiated).decide(forced) else {
      Issue.record("a signed-out session stays signed out")
      return
    }
  }

  @Test func theStateFollowsFromThePhase() {
    #expect(SessionPhase.fresh.state == .signedIn)
    #expect(SessionPhase.live(.healthy, flight: flight()).state == .signedIn)
    #expect(
      SessionPhase.live(degraded(retryIn: 10), flight: nil).state
        == .degraded(retryAt: now.addingTimeInterval(10)))
    #expect(SessionPhase.signedOut(.storageLost).state == .signedOut(.storageLost))
  }

  @Test func theFastPathServesUntilExpiryMinusLeewayWithinTheLifetime() {
    let leeway = 30.0
    let token = credential(expiresIn: 100)
    let expiry = now.timeIntervalSince1970 + 100
    #expect(
      SessionPhase.fresh.servesUntil(token, leeway: leeway, lifetimeEnds: .infinity)
        == expiry - leeway)
    #expect(
      SessionPhase.fresh.servesUntil(token, leeway: leeway, lifetimeEnds: expiry - 50)
        == expiry - 50)
    #expect(
      SessionPhase.live(degraded(retryIn: 10), flight: nil)
        .servesUntil(token, leeway: leeway, lifetimeEnds: .infinity) == expiry - leeway,
      "a degraded session keeps serving a token that works")
    #expect(
      SessionPhase.live(degraded(retryIn: 10, unsaved: token), flight: nil)
        .servesUntil(token, leeway: leeway, lifetimeEnds: .infinity) == -.infinity)
    #expect(
      SessionPhase.signedOut(.userInitiated)
        .servesUntil(token, leeway: leeway, lifetimeEnds: .infinity) == -.infinity)
  }

  @Test func eachFailureCountsOnAndStampsTheErrorWithTheRetryTime() {
    let backoff = BackoffPolicy(baseDelay: .seconds(2), multiplier: 2, jitter: .none)
    let pending = credential(expiresIn: 3600, refreshToken: "rt-2")
    let first = Degradation.after(
      nil, failing: AuthError(.network, "one"), now: now, retryAfter: nil, backoff: backoff,
      unsaved: pending)
    #expect(first.failures == 1)
    #expect(first.retryAt == now.addingTimeInterval(2))
    #expect(first.lastError.retryAfter == first.retryAt)
    #expect(first.unsaved == pending)
    let second = Degradation.after(
      first, failing: AuthError(.network, "two"), now: now, retryAfter: nil, backoff: backoff,
      unsaved: nil)
    #expect(second.failures == 2)
    #expect(second.retryAt == now.addingTimeInterval(4))
    #expect(second.lastError.message == "two")
    #expect(second.unsaved == nil)
    let throttled = Degradation.after(
      second, failing: AuthError(.network, "slow down"), now: now,
      retryAfter: now.addingTimeInterval(60), backoff: backoff, unsaved: nil)
    #expect(throttled.retryAt == now.addingTimeInterval(60), "the provider's Retry-After wins")
  }

  @Test func aRefreshedTokenIsJudgedAgainstTheMinimumTheCallerAskedFor() {
    let leeway = Duration.seconds(30)
    let hour = credential(expiresIn: 3600)  // issued now, for an hour
    #expect(TokenLifetime.judge(hour, for: .zero, at: now, leeway: leeway) == .lasts)
    #expect(TokenLifetime.judge(hour, for: .seconds(3000), at: now, leeway: leeway) == .lasts)
    #expect(
      TokenLifetime.judge(hour, for: .seconds(3600), at: now.addingTimeInterval(2), leeway: leeway)
        == .lasts, "the provider's whole grant, less the round trip")
    #expect(
      TokenLifetime.judge(hour, for: .seconds(4000), at: now, leeway: leeway) == .tooShort)
    #expect(
      TokenLifetime.judge(
        hour, for: .seconds(3000), at: now.addingTimeInterval(1200), leeway: leeway)
        == .issuedAWhileAgo)
    let error = TokenLifetime.tooShortError(
      hour, for: .seconds(4000), at: now, key: SessionKey(provider: "line", subject: "u"))
    #expect(error.code == .tokenLifetimeTooShort)
    #expect(error.provider == "line")
    #expect(error.message.contains("3600 s granted"))
  }

  @Test func aSignedOutPhaseTakesNoFlight() {
    let ended = SessionPhase.signedOut(.userInitiated).with(flight: flight())
    #expect(ended.flight == nil)
    #expect(ended.signedOutReason == .userInitiated)
    let current = flight()
    #expect(SessionPhase.fresh.with(flight: current).flight === current)
  }
}
