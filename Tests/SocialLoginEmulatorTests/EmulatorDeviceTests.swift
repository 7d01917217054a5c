import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Synchronization
import Testing

/// Device logins (RFC 8628) against the emulated OpenID provider: the SDK's
/// `LoginClient.deviceLogin` on a manual clock shared with the emulator, approved or denied
/// through the control API or the verification page.
@Suite("Emulator: device authorization grant", .timeLimit(.minutes(5)))
struct EmulatorDeviceTests {
  static func oidc(_ emulator: ProviderEmulator, clock: any AuthClock, secret: Bool = false)
    -> OIDCProvider
  {
    OIDCProvider(
      id: "oidc",
      configuration: .init(
        issuer: emulator.oidcIssuer, clientID: EmulatorApps.oidcClientID,
        clientSecret: secret ? Secret(EmulatorApps.oidcClientSecret) : nil,
        clientAuthentication: secret
          ? .clientSecretBasic : OAuth2Configuration.ClientAuthentication.none,
        scopes: ["openid", "profile", "email"]),
      transport: EmulatedProviders.transport, clock: clock)
  }

  /// Runs a device login whose prompt `answer` handles (over HTTP), advancing the shared
  /// manual clock a second at a time while the login sleeps; 120 s of real time at most (each
  /// second is a poll over real HTTP, slow on a loaded machine; the suite allows 5 minutes).
  static func login(
    _ emulator: ProviderEmulator, clock: ManualClock, secret: Bool = false,
    provider: (any LoginProvider)? = nil,
    answer: @escaping @Sendable (DeviceLoginPrompt) async throws -> Void
  ) async throws -> Result<SessionActor, any Error> {
    let provider = provider ?? oidc(emulator, clock: clock, secret: secret)
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock)
    let id = provider.id
    let login = Task {
      try await client.deviceLogin(id) { prompt in try await answer(prompt) }
    }
    let ended = Mutex(false)
    let watcher = Task {
      _ = await login.result
      ended.withLock { $0 = true }
    }
    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
    var advanced = 0
    while !ended.withLock({ $0 }), advanced < 2000 {
      try #require(ContinuousClock.now < deadline, "the device login did not end")
      if clock.sleeperCount > 0 {
        clock.advance(by: .seconds(1))
        advanced += 1
      } else {
        await Task.yield()
      }
    }
    await watcher.value
    return await login.result
  }

  static func decide(_ emulator: ProviderEmulator, _ action: String, _ code: String)
    async throws -> RawHTTP.Answer
  {
    try await RawHTTP.json(
      "POST", emulator.at("/_emulator/device/\(action)"), #"{"user_code":"\#(code)"}"#)
  }

  @Test(arguments: [false, true])
  func approvedThroughTheControlAPISignsAliceIn(secret: Bool) async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let result = try await Self.login(emulator, clock: clock, secret: secret) { prompt in
        let pending = try await RawHTTP.send("GET", emulator.at("/_emulator/device/pending"))
        let first = try #require(pending.json?.arrayValue?.first?.objectValue)
        #expect(first["user_code"]?.stringValue == prompt.userCode)
        #expect(first["provider"]?.stringValue == "oidc")
        #expect(first["device_code"] == nil)
        #expect(prompt.verificationURI.absoluteString.hasSuffix("/oidc/device"))
        #expect(prompt.verificationURIComplete?.query?.contains("user_code=") == true)
        #expect(try await Self.decide(emulator, "approve", prompt.userCode).status == 200)
      }
      let session = try result.get()
      #expect(await session.identity?.subject == "alice")
      #expect(try await RawHTTP.send("GET", emulator.at("/_emulator/device/pending")).text == "[]")
    }
  }

  @Test func deniedOnTheVerificationPageIsAccessDenied() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let result = try await Self.login(emulator, clock: clock) { prompt in
        let complete = try #require(prompt.verificationURIComplete)
        let page = try await RawHTTP.send("GET", complete)
        #expect(page.status == 200)
        #expect(page.text.contains(prompt.userCode))
        #expect(page.text.contains("value=\"deny\""))
        let denied = try await RawHTTP.form(
          prompt.verificationURI, [("user_code", prompt.userCode.lowercased()), ("action", "deny")])
        #expect(denied.text.contains("denied"))
      }
      guard case .failure(let error) = result else {
        Issue.record("a denied login signed in")
        return
      }
      #expect((error as? AuthError)?.code == .accessDenied)
      #expect((error as? AuthError)?.oauth?.error == "access_denied")
    }
  }

  @Test func approvedOnTheVerificationPageAfterEnteringTheCode() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let result = try await Self.login(emulator, clock: clock) { prompt in
        let empty = try await RawHTTP.send("GET", prompt.verificationURI)
        #expect(empty.text.contains("name=\"user_code\""))
        let wrong = try await RawHTTP.form(
          prompt.verificationURI, [("user_code", "BBBB-BBBB"), ("action", "approve")])
        #expect(wrong.text.contains("not valid"))
        let approved = try await RawHTTP.form(
          prompt.verificationURI, [("user_code", prompt.userCode), ("action", "approve")])
        #expect(approved.text.contains("approved"))
      }
      #expect(await (try result.get()).identity?.subject == "alice")
    }
  }

  @Test func anExpiredCodeAtTheProviderIsDeviceCodeExpired() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let result = try await Self.login(emulator, clock: clock) { _ in
        let moved = try await RawHTTP.json(
          "POST", emulator.at("/_emulator/clock"), #"{"advance_seconds":601}"#)
        #expect(moved.status == 200)
      }
      guard case .failure(let error) = result else {
        Issue.record("an expired code signed in")
        return
      }
      #expect((error as? AuthError)?.code == .deviceCodeExpired)
      #expect((error as? AuthError)?.oauth?.error == "expired_token")
    }
  }

  @Test func aSlowDownFaultSlowsEveryLaterPoll() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      emulator.inject(
        EmulatorFault(
          provider: ProviderEmulator.oidcProviderID, endpoint: "token", status: 400, count: 1,
          problem: "slow_down"))
      let start = clock.now
      let result = try await Self.login(emulator, clock: clock) { prompt in
        _ = try await Self.decide(emulator, "approve", prompt.userCode)
      }
      _ = try result.get()
      let polls = emulator.requests(to: ProviderEmulator.oidcProviderID, endpoint: "token")
      #expect(polls.map(\.status) == [400, 200])
      // 5 s, then 10 s after slow_down.
      #expect(start.duration(to: clock.now) >= .seconds(15))
    }
  }

  @Test func pollingFasterThanTheIntervalIsSlowDownAndUnknownCodesAreInvalidGrant()
    async throws
  {
    // A manual clock: on a loaded machine two polls a real 5 s apart would not be too fast.
    try await ProviderEmulator.run(clock: ManualClock()) { emulator in
      let started = try await RawHTTP.form(
        emulator.at("/oidc/device_authorization"),
        [("client_id", EmulatorApps.oidcClientID), ("scope", "openid")])
      let deviceCode = try #require(started.json?.objectValue?["device_code"]?.stringValue)
      func poll(_ code: String) async throws -> String? {
        let answer = try await RawHTTP.form(
          emulator.at("/oidc/token"),
          [
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
            ("device_code", code), ("client_id", EmulatorApps.oidcClientID),
          ])
        return answer.json?.objectValue?["error"]?.stringValue
      }
      #expect(try await poll(deviceCode) == "authorization_pending")
      #expect(try await poll(deviceCode) == "slow_down")
      #expect(try await poll("oidcdc-forged") == "invalid_grant")
      let stranger = try await RawHTTP.form(
        emulator.at("/oidc/device_authorization"), [("client_id", "someone-else")])
      #expect(stranger.status == 401)
    }
  }

  @Test(
    arguments: [
      "", "{", "[]", #"{"user_code":42}"#, #"{"user_code":""}"#,
      #"{"user_code":"\#(String(repeating: "B", count: 100_000))"}"#,
    ])
  func hostileControlBodiesAreRefusedAndLoseNothing(body: String) async throws {
    try await ProviderEmulator.run { emulator in
      _ = try await RawHTTP.form(
        emulator.at("/oidc/device_authorization"), [("client_id", EmulatorApps.oidcClientID)])
      for action in ["approve", "deny"] {
        let answer = try await RawHTTP.json(
          "POST", emulator.at("/_emulator/device/\(action)"), body)
        #expect(answer.status == 400)
        #expect(answer.json?.objectValue?["error"]?.stringValue != nil)
      }
      let unknown = try await Self.decide(emulator, "approve", "ZZZZ-ZZZZ")
      #expect(unknown.status == 404)
      let pending = try await RawHTTP.send("GET", emulator.at("/_emulator/device/pending"))
      #expect(pending.json?.arrayValue?.count == 1)
      let wrongMethod = try await RawHTTP.send("GET", emulator.at("/_emulator/device/approve"))
      #expect(wrongMethod.status == 405)
    }
  }

  @Test func theSwiftAPIApprovesLikeTheControlEndpoint() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let unknown = emulator.approveDeviceLogin(userCode: "BBBB-BBBB")
      #expect(!unknown)
      #expect(!emulator.denyDeviceLogin(userCode: "BBBB-BBBB"))
      let result = try await Self.login(emulator, clock: clock) { prompt in
        let approved = emulator.approveDeviceLogin(userCode: " " + prompt.userCode.lowercased())
        #expect(approved)
      }
      #expect(await (try result.get()).identity?.subject == "alice")
    }
  }

  // MARK: Google

  @Test func googleDeviceLoginWithItsDeviations() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let google = try EmulatedProviders.google(emulator, clock: clock)
      #expect(google.capabilities.contains(.deviceGrant))
      let pendingSeen = Mutex(false)
      let result = try await Self.login(emulator, clock: clock, provider: google) { prompt in
        #expect(prompt.verificationURI.absoluteString.hasSuffix("/www.google.com/device"))
        #expect(prompt.verificationURIComplete == nil)
        #expect(prompt.expiresAt == clock.wallTime.addingTimeInterval(1800))
        let page = try await RawHTTP.send(
          "GET",
          prompt.verificationURI.appending(queryItems: [
            URLQueryItem(name: "user_code", value: prompt.userCode)
          ]))
        #expect(page.text.contains("value=\"approve\""))
        pendingSeen.withLock { $0 = true }
        // Close to the code's end, so the polls until it expires are a few dozen HTTP round
        // trips rather than 360 (which overran the real-time deadline on a loaded machine).
        let moved = try await RawHTTP.json(
          "POST", emulator.at("/_emulator/clock"), #"{"advance_seconds":1750}"#)
        #expect(moved.status == 200)
      }
      _ = result
      #expect(pendingSeen.withLock { $0 })
      guard case .failure(let error) = result else {
        Issue.record("nobody approved, yet the login succeeded")
        return
      }
      #expect((error as? AuthError)?.code == .deviceCodeExpired, "\(error)")
      // Nobody approved: Google's 428 pending polls until the code expires (a poll at the
      // very end may get the 400 expired_token).
      let statuses = emulator.requests(to: .google, endpoint: "token").map(\.status)
      #expect(statuses.first == 428, "\(statuses)")
      #expect(Set(statuses).isSubset(of: [428, 400]), "\(statuses)")
      #expect(statuses.dropLast().allSatisfy { $0 == 428 }, "\(statuses)")
    }
  }

  @Test func googleApprovedSignsInWithARefreshToken() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let google = try EmulatedProviders.google(emulator, clock: clock)
      let result = try await Self.login(emulator, clock: clock, provider: google) { prompt in
        let approved = try await Self.decide(emulator, "approve", prompt.userCode)
        #expect(approved.status == 200)
      }
      let session = try result.get()
      #expect(await session.identity?.subject == EmulatedUser.alice.subject(at: .google))
      #expect(await session.credential?.refreshToken != nil)
      let form = try #require(emulator.requests(to: .google, endpoint: "token").first)
      #expect(form.status == 200)
    }
  }

  @Test func googleDenialAndAScopeOutsideTheDeviceSetAreTypedErrors() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let google = try EmulatedProviders.google(emulator, clock: clock)
      let denied = try await Self.login(emulator, clock: clock, provider: google) { prompt in
        _ = try await Self.decide(emulator, "deny", prompt.userCode)
      }
      guard case .failure(let error) = denied else {
        Issue.record("a denied login signed in")
        return
      }
      #expect((error as? AuthError)?.code == .accessDenied)
      #expect((error as? AuthError)?.httpStatus == 403)
      let drive = try EmulatedProviders.google(emulator, clock: clock) {
        $0.scopes = ["openid", "https://www.googleapis.com/auth/drive"]
      }
      let client = try LoginClient(
        providers: [drive], store: InMemorySessionStore(), clock: clock)
      let scoped = await #expect(throws: AuthError.self) {
        _ = try await client.deviceLogin(.google) { _ in }
      }
      #expect(scoped?.oauth?.error == "invalid_scope")
    }
  }
}
