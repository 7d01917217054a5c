import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// Issue 33 item 3: a provider granting tokens no longer than the leeway is logged once per
/// provider (not once per session or refresh), naming the lifetime and the leeway, and the
/// proactive rule is configurable.
@Suite(.timeLimit(.minutes(1))) struct TokenLifetimeWarningTests {
  let clock = ManualClock()
  let logs = RecordedLogs()

  func client(tokenLifetime seconds: Int64, policy: RefreshPolicy = RefreshPolicy())
    throws -> (LoginClient, ScriptedProvider)
  {
    let provider = ScriptedProvider(clock: clock, tokenLifetime: .seconds(seconds))
    let logs = self.logs
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock, policy: policy,
      logger: AuthLogger(minimumLevel: .warning) { logs.append($0) })
    return (client, provider)
  }

  func register(_ subject: String, lifetime: TimeInterval, on client: LoginClient, id: ProviderID)
    async throws -> SessionActor
  {
    try await client.register(
      credential: Credential(
        accessToken: Secret("at-\(subject)"), refreshToken: Secret("rt-\(subject)"),
        expiresAt: clock.wallTime.addingTimeInterval(lifetime), issuedAt: clock.wallTime),
      identity: Identity(provider: id, subject: subject))
  }

  var warnings: [AuthLogRecord] {
    logs.all.filter { $0.level == .warning && $0.message.contains("refresh leeway") }
  }

  @Test func aLifetimeWithinTheLeewayIsLoggedOncePerProvider() async throws {
    let (client, provider) = try client(tokenLifetime: 5)
    let first = try await register("a", lifetime: 5, on: client, id: provider.id)
    let second = try await register("b", lifetime: 5, on: client, id: provider.id)
    // Every request refreshes a 5 s token (the leeway is 30 s): more 5 s grants, no more logs.
    for _ in 0..<3 {
      _ = try await first.freshAccessToken()
      _ = try await second.freshAccessToken()
    }
    #expect(await provider.refreshCount >= 2)
    #expect(warnings.count == 1, "\(logs.all.map(\.message))")
    let warning = try #require(warnings.first)
    #expect(warning.message.contains("\(provider.id) granted an access token for 5 s"))
    #expect(warning.message.contains("leeway of 30 s"))
    #expect(warning.metadata["provider"] == provider.id.rawValue)
    #expect(warning.metadata["lifetime_seconds"] == "5")
    #expect(warning.metadata["leeway_seconds"] == "30")
    for record in logs.all {
      #expect(!record.message.contains("at-") && !record.message.contains("rt-"))
      #expect(!record.metadata.values.contains { $0.contains("at-") || $0.contains("rt-") })
    }
  }

  @Test func aLifetimeLongerThanTheLeewayIsNotLogged() async throws {
    let (client, provider) = try client(tokenLifetime: 31)
    let session = try await register("a", lifetime: 31, on: client, id: provider.id)
    _ = try await session.forceRefresh()
    #expect(warnings.isEmpty, "\(logs.all.map(\.message))")
  }

  @Test func aRefreshGrantingAShortLifetimeIsLoggedToo() async throws {
    // The login granted an hour; the provider's refreshes grant 10 s.
    let (client, provider) = try client(tokenLifetime: 10)
    let session = try await register("a", lifetime: 3600, on: client, id: provider.id)
    #expect(warnings.isEmpty)
    _ = try await session.forceRefresh()
    #expect(warnings.count == 1, "\(logs.all.map(\.message))")
  }

  @Test func theEarliestProactiveRefreshIsConfigurableAndClamped() {
    var policy = RefreshPolicy()
    #expect(policy.earliestProactiveRefreshFraction == 0.5)
    policy.earliestProactiveRefreshFraction = 0.8
    #expect(policy.earliestProactiveRefreshFraction == 0.8)
    policy.earliestProactiveRefreshFraction = 7
    #expect(policy.earliestProactiveRefreshFraction == 1)
    policy.earliestProactiveRefreshFraction = -1
    #expect(policy.earliestProactiveRefreshFraction == 0)
    policy.earliestProactiveRefreshFraction = .nan
    #expect(policy.earliestProactiveRefreshFraction == 0.5)

    // A 150 s token with the default 120 s margin: at 75 s (halfway), or 120 s with 0.8.
    let issued = Date(timeIntervalSince1970: 1_000_000)
    let credential = Credential(
      accessToken: "at", expiresAt: issued.addingTimeInterval(150), issuedAt: issued)
    func planned(_ fraction: Double) -> TimeInterval {
      SessionActor.proactiveRefreshTime(
        of: credential, expiry: issued.addingTimeInterval(150), now: issued,
        margin: .seconds(120), leeway: .seconds(30), fraction: fraction, interval: nil
      ).timeIntervalSince(issued)
    }
    #expect(planned(0.5) == 75)
    #expect(planned(0.8) == 120)
    // A 1-hour token: 2 minutes before expiry, whatever the floor below that.
    let hour = Credential(
      accessToken: "at", expiresAt: issued.addingTimeInterval(3600), issuedAt: issued)
    #expect(
      SessionActor.proactiveRefreshTime(
        of: hour, expiry: issued.addingTimeInterval(3600), now: issued, margin: .seconds(120),
        leeway: .seconds(30), fraction: 0.5, interval: nil
      ).timeIntervalSince(issued) == 3480)
  }
}
