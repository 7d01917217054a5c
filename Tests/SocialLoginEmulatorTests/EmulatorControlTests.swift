import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: status, HTTP controls and transcript", .timeLimit(.minutes(3)))
struct EmulatorControlTests {
  @Test func statusDocumentListsEveryProviderAndItsEndpoints() async throws {
    try await ProviderEmulator.run { emulator in
      let answer = try await RawHTTP.send("GET", emulator.at("/"))
      #expect(answer.status == 200)
      let providers = try #require(answer.json?["providers"]?.arrayValue)
      let names = providers.compactMap { $0["name"]?.stringValue }
      #expect(
        names
          == ["facebook", "twitter", "line", "oidc", "google", "firebase", "apple"]
          + ProviderDescription.builtIn.map(\.id.rawValue))
      let apple = try #require(providers.first { $0["name"]?.stringValue == "apple" })
      #expect(
        Set(apple["endpoints"]?.arrayValue?.compactMap(\.stringValue) ?? [])
          == ["authorize", "token", "keys", "revoke"])
      let x = try #require(providers.first { $0["name"]?.stringValue == "twitter" })
      let endpoints = Set(x["endpoints"]?.arrayValue?.compactMap(\.stringValue) ?? [])
      #expect(
        endpoints.isSuperset(of: [
          "authorize", "token", "revoke", "users_me", "request_token", "access_token",
          "verify_credentials", "invalidate_token",
        ]))
      #expect(answer.json?["emulator"]?["ready"]?.boolValue == true)
      // The Firebase Auth emulator's own readiness document, which Firebase tooling polls.
      #expect(answer.json?["authEmulator"]?["ready"]?.boolValue == true)
    }
  }

  @Test func faultsOverHTTPApplyForCountRequestsThenClear() async throws {
    try await ProviderEmulator.run { emulator in
      let injected = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/faults"),
        #"{"provider":"line","endpoint":"profile","status":503,"count":2}"#)
      #expect(injected.status == 201)
      let profile = emulator.at("/api.line.me/v2/profile")
      let first = try await RawHTTP.send("GET", profile)
      let second = try await RawHTTP.send("GET", profile)
      let third = try await RawHTTP.send("GET", profile)
      let statuses: [Int] = [first.status, second.status, third.status]
      #expect(statuses == [503, 503, 401])
      #expect(first.headers["retry-after"] == "30")
      #expect(first.json?["message"]?.stringValue != nil)  // LINE's {message} shape

      _ = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/faults"), #"{"provider":"twitter","status":500}"#)
      #expect(emulator.faults.count == 1)
      let cleared = try await RawHTTP.send("DELETE", emulator.at("/_emulator/faults"))
      #expect(cleared.status == 200)
      #expect(emulator.faults.isEmpty)
    }
  }

  @Test func xRateLimitCarriesResetHeaderAndProblemJSON() async throws {
    try await ProviderEmulator.run { emulator in
      emulator.inject(
        EmulatorFault(provider: .twitter, endpoint: "users_me", status: 429, count: 1))
      let before = emulator.now.timeIntervalSince1970
      let answer = try await RawHTTP.send("GET", emulator.at("/api.x.com/2/users/me"))
      let after = emulator.now.timeIntervalSince1970
      #expect(answer.status == 429)
      let reset = try #require(answer.headers["x-rate-limit-reset"].flatMap(Double.init))
      // A minute after the emulator's clock while it answered (whole seconds in the header).
      #expect((before + 60 - 1...after + 60 + 1).contains(reset), "\(reset) vs \(before)…\(after)")
      #expect(answer.json?["title"]?.stringValue == "Too Many Requests")
    }
  }

  @Test func droppedConnectionAndSkewedDate() async throws {
    try await ProviderEmulator.run { emulator in
      emulator.inject(
        EmulatorFault(
          provider: ProviderEmulator.oidcProviderID, endpoint: "jwks", drop: true, count: 1))
      await #expect(throws: (any Error).self) {
        _ = try await RawHTTP.send("GET", emulator.at("/oidc/jwks"))
      }
      emulator.inject(
        EmulatorFault(
          provider: ProviderEmulator.oidcProviderID, endpoint: "jwks", dateSkewSeconds: 3600,
          count: 1))
      let before = emulator.now
      let skewed = try await RawHTTP.send("GET", emulator.at("/oidc/jwks"))
      let after = emulator.now
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
      let date = try #require(skewed.headers["date"].flatMap(formatter.date(from:)))
      // An hour ahead of the emulator's clock while it answered (whole seconds in the header).
      let skew = DateInterval(
        start: before.addingTimeInterval(3600 - 1), end: after.addingTimeInterval(3600 + 1))
      #expect(skew.contains(date), "\(date) is not an hour after \(before)…\(after)")
      #expect(emulator.requests.map(\.status) == [0, 200])
    }
  }

  @Test func badControlInputIsA400NotACrash() async throws {
    try await ProviderEmulator.run { emulator in
      let cases = [
        "not json", #"{"provider":"myspace","status":500}"#,
        #"{"provider":"twitter","endpoint":"nope","status":500}"#, #"{"count":0,"status":500}"#,
        #"{"provider":"twitter"}"#, "[1,2,3]", #"{"status":"five hundred"}"#,
      ]
      for body in cases {
        let answer = try await RawHTTP.json("POST", emulator.at("/_emulator/faults"), body)
        #expect(answer.status == 400, "\(body)")
      }
      #expect(emulator.faults.isEmpty)
      let clock = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/clock"), #"{"advance_seconds":-5}"#)
      #expect(clock.status == 400)
    }
  }

  @Test func transcriptIsInOrderAndRedactsSecrets() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.x(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      let token = try await session.freshAccessToken()
      let answer = try await RawHTTP.send("GET", emulator.at("/_emulator/requests"))
      #expect(!answer.text.contains(token))
      #expect(!answer.text.contains(EmulatorApps.twitterClientSecret))
      let records = try #require(answer.json?.arrayValue)
      let endpoints = records.compactMap { $0["endpoint"]?.stringValue }
      #expect(endpoints == ["authorize", "token", "users_me"])
      #expect(records[1]["form"]?["code"]?.stringValue == "<redacted>")
      #expect(records.compactMap { $0["sequence"]?.int64Value } == [1, 2, 3])
      _ = try await RawHTTP.send("DELETE", emulator.at("/_emulator/requests"))
      #expect(emulator.requests.isEmpty)
    }
  }

  @Test func usersSetOverHTTPSignInAndDenyWithTheProvidersCancelError() async throws {
    try await ProviderEmulator.run { emulator in
      let added = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/users"), #"{"id":"dana","name":"Dana Example"}"#)
      #expect(added.status == 201)
      let current = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/users/current"), #"{"id":"dana"}"#)
      #expect(current.status == 200)
      let provider = try EmulatedProviders.facebook(emulator, clock: SystemAuthClock())
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login(.facebook, using: emulator.headlessAgent())
      #expect(await session.identity?.name == "Dana Example")

      emulator.updateUser("dana") { $0.authorization = .deny }
      let dialog = emulator.at(
        "/www.facebook.com/v25.0/dialog/oauth?client_id=\(EmulatorApps.facebookAppID)"
          + "&redirect_uri=http://127.0.0.1/cb&state=abc")
      let landed = try await emulator.approve(dialog)
      let query = URLComponents(url: landed, resolvingAgainstBaseURL: false)?.queryItems ?? []
      #expect(query.first { $0.name == "error_reason" }?.value == "user_denied")
      #expect(query.first { $0.name == "error" }?.value == "access_denied")
      #expect(query.first { $0.name == "state" }?.value == "abc")
    }
  }

  @Test func consentPageWaitsForTheClick() async throws {
    try await ProviderEmulator.run { emulator in
      emulator.updateUser("alice") { $0.authorization = .consent }
      let authorize = emulator.at(
        "/oidc/authorize?response_type=code&client_id=\(EmulatorApps.oidcClientID)"
          + "&redirect_uri=http://127.0.0.1/cb&scope=openid&state=s")
      let page = try await RawHTTP.send("GET", authorize)
      #expect(page.status == 200)
      #expect(page.text.contains("id=\"allow\""))
      let allowed = try await emulator.approve(authorize)
      #expect(allowed.query?.contains("code=") == true)
      let denied = try await emulator.approve(authorize, allowConsent: false)
      #expect(denied.query?.contains("error=access_denied") == true)
    }
  }
}
