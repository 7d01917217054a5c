import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite("Facebook: the Graph API version table and its expiry warning")
struct FacebookGraphVersionTests {
  /// `yyyy-MM-dd` at noon UTC.
  static func day(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text + "T12:00:00Z") ?? .distantPast
  }

  @Test func theDefaultIsTheNewestVersionOfTheTable() throws {
    #expect(FacebookGraphAPIVersion.current == "v26.0")
    #expect(FacebookGraphAPIVersion.known.first?.version == FacebookGraphAPIVersion.current)
    let configuration = try FacebookConfiguration(appID: "1", environment: [:])
    #expect(configuration.graphAPIVersion == "v26.0")
    #expect(configuration.meEndpoint.path == "/v26.0/me")
    // Newest first, each released after the next one and expiring after it.
    for (newer, older) in zip(
      FacebookGraphAPIVersion.known, FacebookGraphAPIVersion.known.dropFirst())
    {
      #expect(newer.released > older.released)
      if let expires = newer.expires, let olderExpires = older.expires {
        #expect(expires > olderExpires)
      }
    }
    #expect(
      FacebookGraphAPIVersion.lookup("v20.0")?.expires
        == Self.day("2026-09-24").addingTimeInterval(-43_200))
  }

  @Test func aVersionWithin90DaysOfItsExpiryOrPastItIsWarnedAbout() {
    let now = Self.day("2026-12-02")
    let soon = FacebookGraphAPIVersion.warning(for: "v21.0", at: now)
    #expect(soon?.contains("expires on 2027-01-21, in 50 days") == true, "\(soon ?? "-")")
    #expect(FacebookGraphAPIVersion.warning(for: "v22.0", at: now) == nil)
    #expect(FacebookGraphAPIVersion.warning(for: "v22.0", at: Self.day("2027-02-20")) != nil)
    #expect(FacebookGraphAPIVersion.warning(for: "v22.0", at: Self.day("2027-02-18")) == nil)
    let expired = FacebookGraphAPIVersion.warning(for: "v20.0", at: now)
    #expect(expired?.contains("expired on 2026-09-24") == true, "\(expired ?? "-")")
    let ancient = FacebookGraphAPIVersion.warning(for: "v9.0", at: now)
    #expect(ancient?.contains("older than v12.0") == true, "\(ancient ?? "-")")
    #expect(FacebookGraphAPIVersion.warning(for: "v26.0", at: now) == nil)
    #expect(FacebookGraphAPIVersion.warning(for: "v27.0", at: now) == nil)
  }

  @Test func theClientLogsTheWarningThroughItsLogger() throws {
    final class Records: @unchecked Sendable {
      let lock = NSLock()
      var records: [AuthLogRecord] = []
      func append(_ record: AuthLogRecord) { lock.withLock { records.append(record) } }
      var all: [AuthLogRecord] { lock.withLock { records } }
    }
    let records = Records()
    let logger = AuthLogger(minimumLevel: .warning) { records.append($0) }
    let clock = ManualClock(wallTime: Self.day("2026-12-02"))
    let expiring = FacebookProvider(
      configuration: try FacebookConfiguration(
        appID: "1", appSecret: Secret("fb-SECRET"), graphAPIVersion: "v21.0", environment: [:]))
    _ = try LoginClient(
      providers: [expiring], store: InMemorySessionStore(), clock: clock, logger: logger)
    let warning = try #require(records.all.first)
    #expect(records.all.count == 1)
    #expect(warning.level == .warning)
    #expect(warning.metadata["graph_api_version"] == "v21.0")
    #expect(warning.metadata["provider"] == "facebook")
    #expect(!warning.message.contains("fb-SECRET"))

    let current = FacebookProvider(
      configuration: try FacebookConfiguration(appID: "1", environment: [:]))
    _ = try LoginClient(
      providers: [current], store: InMemorySessionStore(), clock: clock, logger: logger)
    #expect(records.all.count == 1, "a current version is not warned about")
  }
}
