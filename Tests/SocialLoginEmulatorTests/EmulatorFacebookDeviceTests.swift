import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// Facebook Login for Devices against the emulated Graph API: the SDK on a manual clock shared
/// with the emulator, with the client token only, approved or denied through the control API
/// or the verification page, and the emulator's own answers checked over raw HTTP.
@Suite("Emulator: Facebook Login for Devices", .timeLimit(.minutes(5)))
struct EmulatorFacebookDeviceTests {
  /// A Facebook provider with the client token, and the app secret only when asked.
  static func facebook(_ emulator: ProviderEmulator, clock: any AuthClock, secret: Bool = false)
    throws -> FacebookProvider
  {
    var configuration = try FacebookConfiguration(
      appID: EmulatorApps.facebookAppID,
      appSecret: secret ? Secret(EmulatorApps.facebookAppSecret) : nil,
      emulatorHost: emulator.host, environment: [:])
    configuration.clientToken = Secret(EmulatorApps.facebookClientToken)
    return FacebookProvider(
      configuration: configuration, transport: EmulatedProviders.transport, clock: clock)
  }

  static func login(
    _ emulator: ProviderEmulator, clock: ManualClock, secret: Bool = false,
    answer: @escaping @Sendable (DeviceLoginPrompt) async throws -> Void
  ) async throws -> Result<SessionActor, any Error> {
    try await EmulatorDeviceTests.login(
      emulator, clock: clock, provider: try facebook(emulator, clock: clock, secret: secret),
      answer: answer)
  }

  @Test func approvedWithTheClientTokenAloneWhenTheAppDoesNotRequireTheSecret() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      emulator.facebookRequiresAppSecretProof = false
      let result = try await Self.login(emulator, clock: clock) { prompt in
        let pending = try await RawHTTP.send("GET", emulator.at("/_emulator/device/pending"))
        let first = try #require(pending.json?.arrayValue?.first?.objectValue)
        #expect(first["user_code"]?.stringValue == prompt.userCode)
        #expect(first["provider"]?.stringValue == "facebook")
        #expect(prompt.verificationURI.absoluteString.hasSuffix("/www.facebook.com/device"))
        #expect(prompt.verificationURIComplete == nil)
        #expect(prompt.expiresAt.timeIntervalSince(clock.wallTime) == 420)
        #expect(
          try await EmulatorDeviceTests.decide(emulator, "approve", prompt.userCode).status == 200)
      }
      let session = try result.get()
      #expect(await session.identity?.provider == .facebook)
      #expect(await session.identity?.subject != nil)
      let sent = emulator.requests.map(\.endpoint)
      #expect(!sent.contains("debug_token") && !sent.contains("access_token"))
    }
  }

  /// An app with "Require App Secret" (the emulator's default): the profile request needs
  /// the proof, so a device without the secret cannot finish; with it configured, it can.
  @Test func requireAppSecretNeedsTheSecretForTheProfileOnly() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let refused = try await Self.login(emulator, clock: clock) { prompt in
        emulator.approveDeviceLogin(userCode: prompt.userCode)
      }
      guard case .failure(let error) = refused else {
        Issue.record("a profile request without appsecret_proof was answered")
        return
      }
      #expect((error as? AuthError)?.code == .configuration, "\(error)")
      #expect("\(error)".contains("appSecret"))
      let signedIn = try await Self.login(emulator, clock: clock, secret: true) { prompt in
        emulator.approveDeviceLogin(userCode: prompt.userCode)
      }
      _ = try signedIn.get()
    }
  }

  @Test func deniedOnTheVerificationPageIsAccessDenied() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let result = try await Self.login(emulator, clock: clock) { prompt in
        let page = try await RawHTTP.send(
          "GET",
          URL(string: prompt.verificationURI.absoluteString + "?user_code=\(prompt.userCode)")!)
        #expect(page.text.contains(prompt.userCode))
        let denied = try await RawHTTP.form(
          prompt.verificationURI, [("user_code", prompt.userCode), ("action", "deny")])
        #expect(denied.text.contains("denied"))
      }
      guard case .failure(let error) = result else {
        Issue.record("a denied login signed in")
        return
      }
      #expect((error as? AuthError)?.code == .accessDenied)
      #expect((error as? AuthError)?.providerSubcode == "1349173")
    }
  }

  @Test func anExpiredCodeIsDeviceCodeExpired() async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      // The emulator's clock runs ahead of the SDK's: its 1349152 answer comes first.
      let result = try await Self.login(emulator, clock: clock) { _ in
        let moved = try await RawHTTP.json(
          "POST", emulator.at("/_emulator/clock"), #"{"advance_seconds":418}"#)
        #expect(moved.status == 200)
      }
      guard case .failure(let error) = result else {
        Issue.record("an expired code signed in")
        return
      }
      #expect((error as? AuthError)?.code == .deviceCodeExpired)
      #expect((error as? AuthError)?.providerSubcode == "1349152")
    }
  }

  @Test(arguments: [
    ("slow_down", AuthError.Code?.none), ("access_denied", .accessDenied),
    ("expired_token", .deviceCodeExpired),
  ])
  func faultsAnswerWithGraphsSubcodes(problem: String, ends: AuthError.Code?) async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      emulator.facebookRequiresAppSecretProof = false
      emulator.inject(
        EmulatorFault(
          provider: .facebook, endpoint: "device_login_status", status: 400, count: 1,
          problem: problem))
      let start = clock.now
      let result = try await Self.login(emulator, clock: clock) { prompt in
        emulator.approveDeviceLogin(userCode: prompt.userCode)
      }
      let polls = emulator.requests(to: .facebook, endpoint: "device_login_status")
      if let ends {
        guard case .failure(let error) = result else {
          Issue.record("the \(problem) fault did not end the login")
          return
        }
        #expect((error as? AuthError)?.code == ends)
        #expect(polls.map(\.status) == [400])
      } else {
        _ = try result.get()
        #expect(polls.map(\.status) == [400, 200])
        // 5 s, then 10 s after slow_down.
        #expect(start.duration(to: clock.now) >= .seconds(15))
      }
    }
  }

  @Test func theEmulatorsGraphAnswersOverRawHTTP() async throws {
    // A manual clock: on a loaded machine two polls a real 5 s apart would not be too soon.
    try await ProviderEmulator.run(clock: ManualClock()) { emulator in
      let client = "\(EmulatorApps.facebookAppID)|\(EmulatorApps.facebookClientToken)"
      func subcode(_ answer: RawHTTP.Answer) -> Int? {
        answer.json?["error"]?["error_subcode"]?.int64Value.map(Int.init)
      }
      func code(_ answer: RawHTTP.Answer) -> Int? {
        answer.json?["error"]?["code"]?.int64Value.map(Int.init)
      }
      let started = try await RawHTTP.form(
        emulator.at("/graph.facebook.com/v26.0/device/login"),
        [("access_token", client), ("scope", "public_profile,email")])
      #expect(started.status == 200)
      let object = try #require(started.json?.objectValue)
      let deviceCode = try #require(object["code"]?.stringValue)
      #expect(object["user_code"]?.stringValue?.isEmpty == false)
      #expect(object["expires_in"]?.int64Value == 420)
      #expect(object["interval"]?.int64Value == 5)
      func poll(_ token: String, _ code: String) async throws -> RawHTTP.Answer {
        try await RawHTTP.form(
          emulator.at("/graph.facebook.com/v26.0/device/login_status"),
          [("access_token", token), ("code", code)])
      }
      #expect(subcode(try await poll(client, deviceCode)) == 1_349_174)
      #expect(subcode(try await poll(client, deviceCode)) == 1_349_172)  // too soon
      #expect(code(try await poll(client, "fbdc-forged")) == 100)
      // The app secret is not the device's credential, and a wrong client token is refused.
      let appToken = "\(EmulatorApps.facebookAppID)|\(EmulatorApps.facebookAppSecret)"
      #expect(code(try await poll(appToken, deviceCode)) == 190)
      #expect(code(try await poll("\(EmulatorApps.facebookAppID)|wrong", deviceCode)) == 190)
      #expect(code(try await poll("no-bar", deviceCode)) == 190)
      #expect(code(try await poll("1|\(EmulatorApps.facebookClientToken)", deviceCode)) == 101)
      let malformed = try await RawHTTP.send(
        "POST", emulator.at("/graph.facebook.com/v26.0/device/login"),
        body: Data("%zz=%".utf8), contentType: "application/x-www-form-urlencoded")
      #expect(code(malformed) == 100)
    }
  }
}
