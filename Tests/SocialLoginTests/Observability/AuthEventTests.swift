import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// Collects events (tests).
final class EventLog: AuthObserver {
  private let events = Locked([AuthEvent]())
  var all: [AuthEvent] { events.withLock { $0 } }
  func observe(_ event: AuthEvent) { events.withLock { $0.append(event) } }

  /// The refresh outcomes, in order.
  var refreshOutcomes: [RefreshEventOutcome] {
    all.compactMap { if case .refreshed(_, let outcome, _, _) = $0 { outcome } else { nil } }
  }
}

/// Issue 23 (first part): sessions and logins report typed events to an observer.
@Suite(.timeLimit(.minutes(2))) struct AuthEventTests {
  func session(_ fixture: SessionFixture, _ log: EventLog, expiresIn: TimeInterval = -60)
    async throws -> SessionActor
  {
    SessionActor(
      record: try await fixture.storeInitial(expiresIn: expiresIn), provider: fixture.provider,
      store: fixture.store, clock: fixture.clock, policy: RefreshPolicy(proactiveMargin: nil),
      observer: log)
  }

  @Test func aRefreshReportsItsOutcomeAndItsJoinersOnce() async throws {
    let fixture = SessionFixture()
    let log = EventLog()
    let session = try await session(fixture, log)
    let gate = await fixture.holdNextRefresh(issuing: 7)
    let callers = (0..<20).map { _ in Task { try await session.freshAccessToken() } }
    try await gate.waitForWaiters(count: 1)
    try await WaitTimeout.yieldUntil("20 callers wait") { await session.refreshWaiterCount == 20 }
    gate.open()
    for caller in callers { #expect(try await caller.value == "at-7") }
    #expect(log.refreshOutcomes == [.refreshed])
    let joined = log.all.filter { $0 == .refreshJoined(provider: "scripted") }
    #expect(joined.count == 19, "one caller started the flight; 19 joined it")
    #expect(!log.all.contains { if case .loginSucceeded = $0 { true } else { false } })
  }

  @Test func degradationIsReportedWhenEnteredAndWhenItEnds() async throws {
    let fixture = SessionFixture()
    let log = EventLog()
    let session = try await session(fixture, log)
    await fixture.provider.enqueueRefresh { _ in
      throw AuthError(.serverUnavailable, "503 from provider", httpStatus: 503)
    }
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(log.all.contains(.degraded(provider: "scripted", code: .serverUnavailable)))
    #expect(log.refreshOutcomes == [.degraded])
    _ = try await session.forceRefresh()
    #expect(log.refreshOutcomes == [.degraded, .refreshed])
    #expect(log.all.filter { $0 == .degradationEnded(provider: "scripted") }.count == 1)
  }

  @Test func aSignOutReportsItsTypedReason() async throws {
    let fixture = SessionFixture()
    let log = EventLog()
    let session = try await session(fixture, log)
    await fixture.provider.enqueueRefresh { _ in throw AuthError.oauth("invalid_grant") }
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(log.all.contains(.signedOut(provider: "scripted", reason: .refreshTokenExpired)))
    #expect(log.refreshOutcomes == [.signedOut])
  }

  @Test func aWebLoginReportsSuccessAndFailureWithoutAUser() async throws {
    let clock = ManualClock()
    let log = EventLog()
    let client = try LoginClient(
      providers: [ScriptedProvider(id: "corp", clock: clock)], store: InMemorySessionStore(),
      clock: clock, observer: log)
    let handle = try await client.beginLogin("corp", redirectURI: "https://app.example/cb")
    #expect(log.all == [.loginStarted(provider: "corp")])
    let callback = try AuthorizationCallback(
      url: URL(string: "https://app.example/cb?state=\(handle.state)&code=c")!)
    _ = try await client.completeLogin(callback: callback, expectedState: handle.state)
    guard case .loginSucceeded(let provider, _)? = log.all.last else {
      Issue.record("expected loginSucceeded, got \(log.all)")
      return
    }
    #expect(provider == "corp")
    await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(callback: callback, expectedState: handle.state)
    }
    guard case .loginFailed(_, _, let code)? = log.all.last else {
      Issue.record("expected loginFailed, got \(log.all)")
      return
    }
    #expect(code == .stateMismatch)
  }
}

/// The Prometheus text the recorder renders.
@Suite struct MetricsRecorderTests {
  @Test func eventsBecomeBoundedCountersGaugesAndHistograms() {
    let metrics = MetricsRecorder()
    #expect(metrics.prometheusText().isEmpty)
    metrics.observe(
      .refreshed(
        provider: .line, outcome: .refreshed, duration: .milliseconds(40), leaseWait: .zero))
    metrics.observe(
      .refreshed(provider: .line, outcome: .refreshed, duration: .seconds(3), leaseWait: .zero))
    metrics.observe(.refreshJoined(provider: .line))
    metrics.observe(.signedOut(provider: .facebook, reason: .providerRejected(code: "x-9")))
    metrics.observe(.degraded(provider: .line, code: .network))
    metrics.observe(.degraded(provider: .line, code: .network))
    metrics.observe(.degradationEnded(provider: .line))
    metrics.observe(.loginFailed(provider: "we\"ird", duration: .zero, code: .accessDenied))
    let text = metrics.prometheusText()
    let lines = Set(text.split(separator: "\n").map(String.init))
    for expected in [
      "# TYPE sociallogin_refreshes_total counter",
      #"sociallogin_refreshes_total{provider="line",outcome="refreshed"} 2"#,
      #"sociallogin_refreshes_total{provider="line",outcome="joined"} 1"#,
      #"sociallogin_sign_outs_total{provider="facebook",reason="provider_rejected"} 1"#,
      #"sociallogin_degradations_total{provider="line",code="network"} 2"#,
      "# TYPE sociallogin_sessions_degraded gauge",
      #"sociallogin_sessions_degraded{provider="line"} 1"#,
      "# TYPE sociallogin_refresh_duration_seconds histogram",
      #"sociallogin_refresh_duration_seconds_bucket{provider="line",le="0.05"} 1"#,
      #"sociallogin_refresh_duration_seconds_bucket{provider="line",le="2.5"} 1"#,
      #"sociallogin_refresh_duration_seconds_bucket{provider="line",le="5"} 2"#,
      #"sociallogin_refresh_duration_seconds_bucket{provider="line",le="+Inf"} 2"#,
      #"sociallogin_refresh_duration_seconds_sum{provider="line"} 3.04"#,
      #"sociallogin_refresh_duration_seconds_count{provider="line"} 2"#,
      #"sociallogin_logins_total{provider="we\"ird",outcome="failed",code="access_denied"} 1"#,
    ] {
      #expect(lines.contains(expected), "\(expected)\n---\n\(text)")
    }
    #expect(!text.contains("x-9"), "a label never takes an unbounded value")
    #expect(text.hasSuffix("\n"))
  }

  @Test func everySampleLineHasTheExpositionShape() {
    let metrics = MetricsRecorder()
    metrics.observe(.loginSucceeded(provider: .twitter, duration: .milliseconds(120)))
    metrics.observe(.signedOut(provider: .twitter, reason: .userInitiated))
    let sample = /^[a-z_]+(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? [0-9.e+-]+$/
    for line in metrics.prometheusText().split(separator: "\n") where !line.hasPrefix("#") {
      #expect(line.wholeMatch(of: sample) != nil, "\(line)")
    }
  }
}
