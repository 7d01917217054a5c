import Foundation
import SocialLogin
import SocialLoginTesting
import Synchronization
import Testing

/// `LoginClient.deviceLogin` against a stubbed OIDC issuer on a manual clock: what is shown
/// before polling, the poll schedule, every way it ends, and hostile answers.
@Suite(.timeLimit(.minutes(5))) struct DeviceLoginTests {
  static let deviceJSON =
    #"{"device_code":"dc-SECRET","user_code":"WDJB-MJHT","verification_uri":"https://id.example/device","#
    + #""verification_uri_complete":"https://id.example/device?user_code=WDJB-MJHT","#
    + #""expires_in":600,"interval":5}"#

  /// An issuer whose discovery lists a device endpoint, a client on its manual clock, and
  /// the device authorization already scripted.
  struct Fixture {
    let oidc: OIDCStubProvider
    let client: LoginClient
    let log = OAuth2DeviceGrantTests.PollLog()
    var stub: StubTransport { oidc.stub }
    var clock: ManualClock { oidc.clock }

    init(device: Bool = true, deviceJSON: String = DeviceLoginTests.deviceJSON) throws {
      let issuer = OIDCStubProvider.issuer
      oidc = try OIDCStubProvider(
        clientSecret: nil,
        documentOverrides: device
          ? ["device_authorization_endpoint": .string(issuer + "/device")] : [:])
      oidc.userinfo()
      oidc.stub.on("POST", "/device", reply: .json(deviceJSON))
      client = try LoginClient(
        providers: [oidc.provider], store: InMemorySessionStore(), clock: oidc.clock)
    }

    /// Scripts the next token-endpoint answer, recording when it is asked.
    func poll(_ reply: StubTransport.Reply) {
      stub.on("POST", "/token", reply: log.reply(clock, reply))
    }

    func approved() {
      let idToken = OIDCStubProvider.jwt(typ: "JWT", ["client_id": nil, "jti": nil])
      poll(
        .json(
          #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"id_token":"\#(idToken)"}"#
        ))
    }

    /// Runs the login in a task and advances the clock whenever it sleeps, until it ends or
    /// `seconds` have passed.
    func run(seconds: Int = 700, prompts: PromptLog = PromptLog()) async
      -> Result<SessionActor, any Error>
    {
      let stub = stub
      let login = Task { [client] in
        try await client.deviceLogin("corp") { prompt in
          // What is shown comes before any poll.
          #expect(stub.requestCount(path: "/token") == 0)
          prompts.shown.withLock { $0.append(prompt) }
        }
      }
      let ended = Mutex(false)
      let watcher = Task {
        _ = await login.result
        ended.withLock { $0 = true }
      }
      await OAuth2DeviceGrantTests.drive(clock, seconds: seconds) { ended.withLock { $0 } }
      await watcher.value
      return await login.result
    }

    /// The login's error, when it failed with an ``AuthError``.
    func failure(seconds: Int = 700, prompts: PromptLog = PromptLog()) async -> AuthError? {
      guard case .failure(let error) = await run(seconds: seconds, prompts: prompts) else {
        return nil
      }
      return error as? AuthError
    }
  }

  /// The prompts a login showed.
  final class PromptLog: Sendable {
    let shown = Mutex<[DeviceLoginPrompt]>([])
  }

  static func pending(_ error: String, status: Int = 400, extra: String = "")
    -> StubTransport.Reply
  {
    .json(#"{"error":"\#(error)"\#(extra)}"#, status: status)
  }

  @Test func showsThePromptThenPollsUntilApprovedAndRegistersTheSession() async throws {
    let fixture = try Fixture()
    // Auth0's wording: 403 pending, 429 slow_down; Google's 428 pending.
    fixture.poll(Self.pending("authorization_pending", status: 403))
    fixture.poll(Self.pending("slow_down", status: 429))
    fixture.poll(Self.pending("authorization_pending", status: 428))
    fixture.approved()
    let prompts = PromptLog()
    let session = try await fixture.run(prompts: prompts).get()
    // 5 s, then 5 s again; slow_down makes it 10 s for this and every later poll.
    #expect(fixture.log.seconds == [5, 10, 20, 30])
    #expect(await session.identity?.subject == "user-1")
    #expect(try fixture.client.session(for: "corp") === session)
    let prompt = try #require(prompts.shown.withLock { $0.first })
    #expect(prompts.shown.withLock { $0.count } == 1)
    #expect(prompt.userCode == "WDJB-MJHT")
    #expect(prompt.verificationURI.absoluteString == "https://id.example/device")
    #expect(
      prompt.verificationURIComplete?.absoluteString
        == "https://id.example/device?user_code=WDJB-MJHT")
    #expect(prompt.expiresAt == Date(timeIntervalSince1970: 1_700_000_600))
    #expect(!"\(prompt)".contains("dc-SECRET"))
    let form = OAuth2Fixture.form(fixture.stub.requests.last { $0.url.path == "/token" })
    #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
    #expect(form["device_code"] == "dc-SECRET")
    #expect(form["client_id"] == OIDCStubProvider.clientID)
  }

  @Test func slowDownTakesTheLongerIntervalTheProviderSends() async throws {
    let fixture = try Fixture()
    fixture.poll(Self.pending("slow_down", extra: #","interval":30"#))  // GitHub's form
    fixture.poll(Self.pending("authorization_pending"))
    fixture.approved()
    _ = try await fixture.run().get()
    #expect(fixture.log.seconds == [5, 35, 65])
  }

  @Test func transientFailuresDoubleTheIntervalAndPollingGoesOn() async throws {
    let fixture = try Fixture()
    fixture.poll(.status(503, body: "<html>busy</html>"))
    fixture.poll(.failure(AuthError(.network, "connection reset")))
    fixture.approved()
    _ = try await fixture.run().get()
    #expect(fixture.log.seconds == [5, 15, 35])
  }

  @Test(
    arguments: [
      ("access_denied", 400, AuthError.Code.accessDenied),
      ("authorization_declined", 400, .accessDenied),
      ("expired_token", 403, .deviceCodeExpired),
      ("invalid_grant", 403, .deviceCodeExpired),  // Auth0, after expired_token once
      ("device_flow_disabled", 400, .configuration),
      ("invalid_client", 401, .providerError),
      ("something_new", 400, .providerError),
    ])
  func everyTerminalAnswerEndsTheLoginWithATypedError(
    error: String, status: Int, code: AuthError.Code
  ) async throws {
    let fixture = try Fixture()
    fixture.poll(Self.pending("authorization_pending"))
    fixture.poll(Self.pending(error, status: status))
    let thrown = try #require(await fixture.failure())
    #expect(thrown.code == code)
    #expect(thrown.oauth?.error == error)
    #expect(thrown.provider == "corp")
    #expect(fixture.log.seconds == [5, 10])  // no poll after the verdict
    #expect(try fixture.client.session(for: "corp") == nil)
    expectNoSecrets(thrown, ["dc-SECRET"])
  }

  @Test func pollingStopsAtTheCodesExpiryWithoutExpiredToken() async throws {
    let fixture = try Fixture(
      deviceJSON: Self.deviceJSON.replacingOccurrences(of: "600", with: "12"))
    fixture.stub.on(
      "POST", "/token", repeating: true,
      reply: fixture.log.reply(fixture.clock, Self.pending("authorization_pending")))
    let thrown = try #require(await fixture.failure())
    #expect(thrown.code == .deviceCodeExpired)
    #expect(fixture.log.seconds == [5, 10])
  }

  @Test func anIssuerWithoutADeviceEndpointIsUnsupported() async throws {
    let fixture = try Fixture(device: false)
    let thrown = try #require(await fixture.failure())
    #expect(thrown.code == .unsupported)
    #expect(thrown.message.contains(OIDCStubProvider.issuer))
    #expect(fixture.stub.requestCount(path: "/device") == 0)
    #expect(!fixture.oidc.provider.capabilities.contains(.deviceGrant))
  }

  @Test func aProviderWithoutTheCapabilityIsUnsupported() async throws {
    let scripted = ScriptedProvider(id: "plain", clock: ManualClock())
    let client = try LoginClient(providers: [scripted], store: InMemorySessionStore())
    let shown = Mutex(false)
    let error = await authError {
      _ = try await client.deviceLogin("plain") { _ in shown.withLock { $0 = true } }
    }
    #expect(error?.code == .unsupported)
    #expect(shown.withLock { $0 } == false)
  }

  @Test func cancellationWhilePollingEndsTheLoginWithoutASession() async throws {
    let fixture = try Fixture()
    fixture.stub.on(
      "POST", "/token", repeating: true, reply: Self.pending("authorization_pending"))
    let login = Task { [client = fixture.client] in
      try await client.deviceLogin("corp") { _ in }
    }
    try await fixture.clock.waitForSleepers(count: 1)
    fixture.clock.advance(by: .seconds(5))
    try await Self.waitUntil { fixture.stub.requestCount(path: "/token") == 1 }
    try await fixture.clock.waitForSleepers(count: 1)
    login.cancel()
    await #expect(throws: CancellationError.self) { try await login.value }
    #expect(fixture.clock.sleeperCount == 0)
    #expect(try fixture.client.session(for: "corp") == nil)
  }

  @Test func anErrorThrownByShowEndsTheLoginBeforeAnyPoll() async throws {
    struct Refused: Error {}
    let fixture = try Fixture()
    await #expect(throws: Refused.self) {
      _ = try await fixture.client.deviceLogin("corp") { _ in throw Refused() }
    }
    #expect(fixture.stub.requestCount(path: "/token") == 0)
  }

  /// Yields until `condition` holds, failing after 45 seconds of real time.
  static func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(45))
    while !condition() {
      try #require(ContinuousClock.now < deadline, "timed out waiting")
      await Task.yield()
    }
  }

  // MARK: Hostile answers

  @Test(
    arguments: [
      #"{"device_code":"dc","user_code":"U","verification_uri":"https://x/d","expires_in":"soon"}"#,
      #"{"device_code":7,"user_code":"U","verification_uri":"https://x/d","expires_in":60}"#,
      #"{"device_code":"dc","user_code":["U"],"verification_uri":"https://x/d","expires_in":60}"#,
      #"{"device_code":"dc","user_code":"U","verification_uri":"not a url","expires_in":60}"#,
      #"[1,2,3]"#,
      #"{"device_code":"dc","#,
      "<html>login</html>",
    ])
  func aMalformedDeviceAuthorizationIsATypedErrorAndNothingIsShown(body: String) async throws {
    let fixture = try Fixture(deviceJSON: body)
    let prompts = PromptLog()
    let thrown = try #require(await fixture.failure(prompts: prompts))
    #expect(thrown.code == .invalidResponse)
    #expect(prompts.shown.withLock { $0.isEmpty })
  }

  @Test func hostilePollAnswersAreTransientAndTheLoginStillSucceeds() async throws {
    let fixture = try Fixture()
    fixture.poll(.json(#"{"error":42}"#, status: 400))  // wrong type: no OAuth error
    fixture.poll(.status(400, body: String(repeating: "x", count: 2_000_000)))  // huge
    fixture.poll(.json(#"{"error":"authorization_pen"#, status: 400))  // truncated
    fixture.poll(.json(#"{"token_type":"Bearer"}"#))  // a success without a token
    fixture.approved()
    let session = try await fixture.run(seconds: 2000).get()
    #expect(await session.identity?.subject == "user-1")
    #expect(fixture.log.seconds == [5, 15, 35, 75, 155])
  }

  @Test func anIDTokenWithABadSignatureEndsTheLoginWithoutASession() async throws {
    let fixture = try Fixture()
    let forged = OIDCStubProvider.jwt(typ: "JWT", ["client_id": nil]).dropLast(4) + "AAAA"
    fixture.poll(.json(#"{"access_token":"at","token_type":"Bearer","id_token":"\#(forged)"}"#))
    let thrown = try #require(await fixture.failure())
    #expect(thrown.code == .invalidToken)
    #expect(try fixture.client.session(for: "corp") == nil)
  }
}
