import Foundation
import SocialLogin
import SocialLoginTesting
import Synchronization
import Testing

/// Facebook Login for Devices on a stub transport and a manual clock: the requests carry the
/// client token and never the app secret, Graph's subcodes drive the polling, and hostile
/// answers end in typed errors.
@Suite(.timeLimit(.minutes(2))) struct FacebookDeviceLoginTests {
  static let clientToken = "fb-client-TOKEN"
  static let loginPath = "/v26.0/device/login"
  static let statusPath = "/v26.0/device/login_status"
  static let loginBody =
    #"{"code":"fb-device-SECRET","user_code":"A1B2C3D4","verification_uri":"https://www.facebook.com/device","expires_in":420,"interval":5}"#

  /// A Facebook provider with a client token (and an app secret only when asked), its client
  /// on the manual clock, and `device/login` scripted.
  struct Fixture {
    let facebook: FacebookFixture
    let client: LoginClient
    let log = OAuth2DeviceGrantTests.PollLog()
    var stub: StubTransport { facebook.stub }
    var clock: ManualClock { facebook.clock }

    init(appSecret: Bool = false, loginBody: String = FacebookDeviceLoginTests.loginBody) throws {
      facebook = try FacebookFixture { configuration in
        if !appSecret { configuration.appSecret = nil }
        configuration.clientToken = Secret(FacebookDeviceLoginTests.clientToken)
      }
      facebook.stub.on("POST", FacebookDeviceLoginTests.loginPath, reply: .json(loginBody))
      facebook.stub.on("GET", FacebookFixture.mePath, reply: .json(FacebookFixture.meBody))
      client = try LoginClient(
        providers: [facebook.provider], store: InMemorySessionStore(), clock: facebook.clock)
    }

    /// Scripts the next `device/login_status` answer, recording when it is asked.
    func poll(_ reply: StubTransport.Reply) {
      stub.on("POST", FacebookDeviceLoginTests.statusPath, reply: log.reply(clock, reply))
    }

    func approved() {
      poll(
        .json(
          #"{"access_token":"EAAG-device-token","expires_in":5183999,"data_access_expiration_time":1707776000}"#
        ))
    }

    /// Runs the login, advancing the clock whenever it sleeps.
    func run(seconds: Int = 700, prompts: DeviceLoginTests.PromptLog = .init()) async
      -> Result<SessionActor, any Error>
    {
      let login = Task { [client] in
        try await client.deviceLogin(.facebook) { prompt in
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

    func failure(seconds: Int = 700) async -> AuthError? {
      guard case .failure(let error) = await run(seconds: seconds) else { return nil }
      return error as? AuthError
    }

    /// Every field of every request sent, query and form.
    var everyField: [(String, String)] {
      stub.requests.flatMap { request in
        OAuth2Fixture.query(of: request.url) + OAuth2Fixture.fields(of: request)
      }
    }
  }

  static func subcode(_ subcode: Int, code: Int = 31) -> StubTransport.Reply {
    .json(
      #"{"error":{"message":"Device login","type":"OAuthException","code":\#(code),"error_subcode":\#(subcode),"fbtrace_id":"Ab1"}}"#,
      status: 400)
  }

  @Test func pendingAndSlowDownThenApprovedWithTheClientTokenAlone() async throws {
    let fixture = try Fixture()
    fixture.poll(Self.subcode(1_349_174))
    fixture.poll(Self.subcode(1_349_172))
    fixture.poll(Self.subcode(1_349_174))
    fixture.approved()
    let prompts = DeviceLoginTests.PromptLog()
    let session = try await fixture.run(prompts: prompts).get()
    // 5 s, 5 s; slow_down makes it 10 s for this and every later poll.
    #expect(fixture.log.seconds == [5, 10, 20, 30])
    #expect(await session.identity?.subject == "10001")
    #expect(await session.identity?.email == "ada@example.com")
    let prompt = try #require(prompts.shown.withLock { $0.first })
    #expect(prompt.userCode == "A1B2C3D4")
    #expect(prompt.verificationURI.absoluteString == "https://www.facebook.com/device")
    #expect(prompt.verificationURIComplete == nil)
    #expect(prompt.expiresAt == Date(timeIntervalSince1970: 1_700_000_420))
    #expect(!"\(prompt)".contains("fb-device-SECRET"))
    let start = OAuth2Fixture.form(
      fixture.stub.requests.first { $0.url.path == Self.loginPath })
    #expect(start["access_token"] == "\(FacebookFixture.appID)|\(Self.clientToken)")
    #expect(start["scope"] == "public_profile,email")
    let poll = OAuth2Fixture.form(fixture.stub.requests.last { $0.url.path == Self.statusPath })
    #expect(poll["code"] == "fb-device-SECRET")
    #expect(poll["access_token"] == "\(FacebookFixture.appID)|\(Self.clientToken)")
    // No app secret, so no appsecret_proof and no debug_token.
    #expect(!fixture.everyField.contains { $0.0 == "appsecret_proof" || $0.0 == "client_secret" })
    #expect(fixture.stub.requestCount(path: FacebookFixture.debugPath) == 0)
    let me = FacebookFixture.query(
      fixture.stub.requests.last { $0.url.path == FacebookFixture.mePath })
    #expect(me["access_token"] == "EAAG-device-token")
    let credential = try #require(await session.credential)
    #expect(credential.extra[FacebookProvider.dataAccessExpiresAtKey] == "1707776000")
    #expect(credential.expiresAt != nil)
  }

  @Test func anAppSecretOnlyAddsTheProofToTheProfileRequest() async throws {
    let fixture = try Fixture(appSecret: true)
    fixture.approved()
    _ = try await fixture.run().get()
    let me = FacebookFixture.query(
      fixture.stub.requests.last { $0.url.path == FacebookFixture.mePath })
    #expect(me["appsecret_proof"] != nil)
    let device = fixture.stub.requests.filter { $0.url.path.hasPrefix("/v26.0/device/") }
    let deviceFields = device.flatMap {
      OAuth2Fixture.query(of: $0.url) + OAuth2Fixture.fields(of: $0)
    }
    #expect(!deviceFields.contains { $0.1.contains(FacebookFixture.appSecret.revealed) })
    #expect(!deviceFields.contains { $0.0 == "appsecret_proof" })
  }

  @Test func declinedIsAccessDeniedAndExpiredIsDeviceCodeExpired() async throws {
    let declined = try Fixture()
    declined.poll(Self.subcode(1_349_173))
    let denial = try #require(await declined.failure())
    #expect(denial.code == .accessDenied)
    #expect(denial.oauth?.error == "access_denied")
    #expect(denial.providerSubcode == "1349173")

    let expired = try Fixture()
    expired.poll(Self.subcode(1_349_174))
    expired.poll(Self.subcode(1_349_152))
    let expiry = try #require(await expired.failure())
    #expect(expiry.code == .deviceCodeExpired)
    #expect(expiry.oauth?.error == "expired_token")
    #expect(expired.log.seconds == [5, 10])
  }

  @Test func pollingStopsAtTheCodesExpiryWithoutAnAnswer() async throws {
    let fixture = try Fixture()
    fixture.stub.on(
      "POST", Self.statusPath, repeating: true,
      reply: fixture.log.reply(fixture.clock, Self.subcode(1_349_174)))
    let error = try #require(await fixture.failure())
    #expect(error.code == .deviceCodeExpired)
    #expect(fixture.log.seconds == Array(stride(from: 5, through: 415, by: 5)))  // not at 420 s
  }

  @Test func anUnknownSubcodeEndsTheLoginAsTheProvidersError() async throws {
    let fixture = try Fixture()
    fixture.poll(Self.subcode(1_234_567))
    let error = try #require(await fixture.failure())
    #expect(error.code == .providerError)
    #expect(error.providerSubcode == "1234567")
    #expect(fixture.log.seconds == [5])
  }

  @Test func answersThatAreNotGraphsKeepPollingWithABackoff() async throws {
    let fixture = try Fixture()
    fixture.poll(.status(200, body: "<html>oops</html>"))
    fixture.poll(.json(#"{"expires_in":100}"#))  // success without a token
    fixture.approved()
    _ = try await fixture.run().get()
    #expect(fixture.log.seconds == [5, 15, 35])
  }

  @Test(
    arguments: [
      "", "<html>", "[]",
      #"{"user_code":"A","verification_uri":"https://f.test/d","expires_in":420}"#,
      #"{"code":"c","verification_uri":"https://f.test/d","expires_in":420}"#,
      #"{"code":"c","user_code":"A","verification_uri":"javascript:alert(1)","expires_in":420}"#,
      #"{"code":"c","user_code":"A","verification_uri":"https://f.test/d"}"#,
      #"{"code":"c","user_code":"A","verification_uri":"https://f.test/d","expires_in":-5}"#,
      #"{"code":42,"user_code":"A","verification_uri":"https://f.test/d","expires_in":420}"#,
    ])
  func hostileStartAnswersAreInvalidResponses(_ body: String) async throws {
    let fixture = try Fixture(loginBody: body)
    let error = try #require(await fixture.failure())
    #expect(error.code == .invalidResponse, "\(error)")
    #expect(fixture.stub.requestCount(path: Self.statusPath) == 0)
  }

  @Test func aHugeIntervalAndLifetimeAreClamped() async throws {
    let body =
      #"{"code":"c","user_code":"A","verification_uri":"https://f.test/d","expires_in":1e12,"interval":1e300}"#
    let fixture = try Fixture(loginBody: body)
    fixture.stub.on("POST", Self.loginPath, reply: .json(body))
    let provider = fixture.facebook.provider
    let authorization = try await provider.startDeviceLogin(scopes: nil)
    #expect(authorization.expiresIn == 86_400)
    // The poller clamps the interval to an hour: the first poll waits 3600 s, not 1e300.
    fixture.approved()
    _ = try await fixture.run(seconds: 4000).get()
    #expect(fixture.log.seconds == [3600])
  }

  @Test func withoutAClientTokenNothingIsSent() async throws {
    let facebook = try FacebookFixture()
    #expect(!facebook.provider.capabilities.contains(.deviceGrant))
    await #expect(throws: AuthError.self) {
      _ = try await facebook.provider.startDeviceLogin(scopes: nil)
    }
    do {
      _ = try await facebook.provider.startDeviceLogin(scopes: nil)
    } catch let error as AuthError {
      #expect(error.code == .configuration)
      #expect(error.message.contains("client token"))
    }
    #expect(facebook.stub.requests.isEmpty)
    #expect(try Fixture().facebook.provider.capabilities.contains(.deviceGrant))
  }

  @Test func aRejectedClientTokenIsAConfigurationErrorThatNeverShowsIt() async throws {
    let facebook = try FacebookFixture { $0.clientToken = Secret(Self.clientToken) }
    facebook.stub.on(
      "POST", Self.loginPath,
      reply: .json(
        #"{"error":{"message":"Invalid OAuth access token \#(FacebookFixture.appID)|\#(Self.clientToken).","type":"OAuthException","code":190,"fbtrace_id":"A"}}"#,
        status: 400))
    do {
      _ = try await facebook.provider.startDeviceLogin(scopes: ["public_profile"])
      Issue.record("a rejected client token started a login")
    } catch let error as AuthError {
      #expect(error.code == .configuration)
      #expect(error.message.contains("client token"))
      #expect(!"\(error)".contains(Self.clientToken))
      #expect(!String(reflecting: error).contains(Self.clientToken))
    }
  }
}
