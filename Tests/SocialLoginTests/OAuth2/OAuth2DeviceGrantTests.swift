import Foundation
import SocialLogin
import SocialLoginTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct OAuth2DeviceGrantTests {
  static let authorizationJSON =
    #"{"device_code":"dc-SECRET","user_code":"WDJB-MJHT","verification_uri":"https://auth.test/device","#
    + #""verification_uri_complete":"https://auth.test/device?user_code=WDJB-MJHT","expires_in":1800}"#

  static func pendingReply(_ error: String) -> StubTransport.Reply {
    .json(#"{"error":"\#(error)"}"#, status: 400)
  }

  /// Replies that record the manual clock's offset when each poll arrives.
  final class PollLog: Sendable {
    let offsets = Mutex<[Duration]>([])
    func reply(_ clock: ManualClock, _ reply: StubTransport.Reply) -> StubTransport.Reply {
      .handler { [self] request in
        self.offsets.withLock { $0.append(clock.now.offset) }
        switch reply {
        case .response(let response): return response
        case .failure(let error): throw error
        case .handler(let handler): return try await handler(request)
        }
      }
    }
    var seconds: [Int64] { offsets.withLock { $0.map(\.components.seconds) } }
  }

  static func authorization(_ fixture: OAuth2Fixture, json: String = authorizationJSON)
    async throws -> DeviceAuthorization
  {
    fixture.stub.on("POST", "/device", reply: .json(json))
    return try await fixture.client.requestDeviceAuthorization()
  }

  /// Advances the clock one second at a time, whenever the poller sleeps, until `isDone` or
  /// `limit` seconds have passed.
  static func drive(_ clock: ManualClock, seconds limit: Int, until isDone: () -> Bool) async {
    var advanced = 0
    var spins = 0
    while !isDone(), advanced < limit, spins < 1_000_000 {
      if clock.sleeperCount > 0 {
        clock.advance(by: .seconds(1))
        advanced += 1
      } else {
        spins += 1
        await Task.yield()
      }
    }
  }

  @Test func deviceAuthorizationRequestAndResponse() async throws {
    let fixture = try OAuth2Fixture(clientSecret: nil, authentication: .none)
    let authorization = try await Self.authorization(fixture)
    let request = try #require(fixture.stub.requests.last)
    #expect(request.url.path == "/device")
    #expect(
      OAuth2Fixture.fields(of: request).map { "\($0.0)=\($0.1)" } == [
        "scope=openid profile", "client_id=client-1",
      ])
    #expect(authorization.deviceCode == "dc-SECRET")
    #expect(authorization.userCode == "WDJB-MJHT")
    #expect(authorization.verificationURI.absoluteString == "https://auth.test/device")
    #expect(
      authorization.verificationURIComplete?.absoluteString
        == "https://auth.test/device?user_code=WDJB-MJHT")
    #expect(authorization.expiresIn == 1800)
    #expect(authorization.interval == 5)
    #expect(authorization.expiresAt == fixture.clock.wallTime.addingTimeInterval(1800))
    #expect(!"\(authorization)".contains("dc-SECRET"))
  }

  @Test func malformedDeviceAuthorizationIsAnInvalidResponse() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/device", reply: .json(#"{"device_code":"dc","user_code":"U"}"#))
    let error = await authError { _ = try await fixture.client.requestDeviceAuthorization() }
    #expect(error?.code == .invalidResponse)
    #expect(error?.message.contains("verification_uri") == true)
  }

  @Test func pendingPendingSlowDownSuccess() async throws {
    let fixture = try OAuth2Fixture(clientSecret: nil, authentication: .none)
    let authorization = try await Self.authorization(
      fixture,
      json: Self.authorizationJSON.replacingOccurrences(of: "}", with: #","interval":"5"}"#))
    let log = PollLog()
    let clock = fixture.clock
    fixture.stub.on(
      "POST", "/token", reply: log.reply(clock, Self.pendingReply("authorization_pending")))
    fixture.stub.on(
      "POST", "/token", reply: log.reply(clock, Self.pendingReply("authorization_pending")))
    fixture.stub.on("POST", "/token", reply: log.reply(clock, Self.pendingReply("slow_down")))
    fixture.stub.on(
      "POST", "/token", reply: log.reply(clock, Self.pendingReply("authorization_pending")))
    fixture.stub.on(
      "POST", "/token",
      reply: log.reply(clock, .json(#"{"access_token":"at","token_type":"Bearer"}"#)))

    let poll = Task { try await fixture.client.pollDeviceToken(authorization) }
    // Polls at 5, 10, 15 s; slow_down makes every later interval 10 s: 25, 35 s.
    await Self.drive(clock, seconds: 60) { fixture.stub.unusedReplyCount == 0 }
    let tokens = try await poll.value
    #expect(tokens.credential.accessToken == "at")
    #expect(log.seconds == [5, 10, 15, 25, 35])
    let form = OAuth2Fixture.form(fixture.stub.requests.last)
    #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
    #expect(form["device_code"] == "dc-SECRET")
    #expect(form["client_id"] == "client-1")
  }

  @Test func sleepsTheFullIntervalBeforeEachPoll() async throws {
    let fixture = try OAuth2Fixture()
    let authorization = try await Self.authorization(fixture)
    fixture.stub.on("POST", "/token", reply: Self.pendingReply("slow_down"))
    fixture.stub.on("POST", "/token", reply: .json(#"{"access_token":"at"}"#))
    let poll = Task { try await fixture.client.pollDeviceToken(authorization) }
    try await fixture.clock.waitForSleepers(count: 1)
    fixture.clock.advance(by: .seconds(4))
    #expect(fixture.stub.requestCount(path: "/token") == 0)
    fixture.clock.advance(by: .seconds(1))
    await fixture.stub.waitForRequests(count: 2)  // device + first poll
    try await fixture.clock.waitForSleepers(count: 1)
    fixture.clock.advance(by: .seconds(9))  // 5 + 5 after slow_down: not yet
    #expect(fixture.clock.sleeperCount == 1)
    #expect(fixture.stub.requestCount(path: "/token") == 1)
    fixture.clock.advance(by: .seconds(1))
    #expect(try await poll.value.credential.accessToken == "at")
  }

  @Test(
    arguments: [
      ("expired_token", AuthError.Code.deviceCodeExpired),
      ("access_denied", AuthError.Code.accessDenied),
      ("invalid_client", AuthError.Code.providerError),
    ])
  func terminalPollErrorsStopPolling(error: String, code: AuthError.Code) async throws {
    let fixture = try OAuth2Fixture()
    let authorization = try await Self.authorization(fixture)
    fixture.stub.on("POST", "/token", reply: Self.pendingReply("authorization_pending"))
    fixture.stub.on("POST", "/token", reply: Self.pendingReply(error))
    let poll = Task { try await fixture.client.pollDeviceToken(authorization) }
    await Self.drive(fixture.clock, seconds: 60) { fixture.stub.unusedReplyCount == 0 }
    let thrown = await authError { _ = try await poll.value }
    #expect(thrown?.code == code)
    #expect(thrown?.oauth?.error == error)
    #expect(fixture.stub.requestCount(path: "/token") == 2)
    expectNoSecrets(thrown, ["dc-SECRET", "client-SECRET-value"])
  }

  @Test func stopsWhenTheDeviceCodesOwnExpiryPasses() async throws {
    let fixture = try OAuth2Fixture()
    let authorization = try await Self.authorization(
      fixture, json: Self.authorizationJSON.replacingOccurrences(of: "1800", with: "12"))
    fixture.stub.on(
      "POST", "/token", repeating: true, reply: Self.pendingReply("authorization_pending"))
    let poll = Task { try await fixture.client.pollDeviceToken(authorization) }
    let thrown = Mutex<AuthError?>(nil)
    let done = Task {
      let error = await authError { _ = try await poll.value }
      thrown.withLock { $0 = error }
    }
    await Self.drive(fixture.clock, seconds: 30) { thrown.withLock { $0 != nil } }
    await done.value
    #expect(thrown.withLock { $0?.code } == .deviceCodeExpired)
    #expect(fixture.stub.requestCount(path: "/token") == 2)  // at 5 s and 10 s; 15 s is too late
  }

  @Test func hostileIntervalIsClampedAndPollingEndsAtExpiry() async throws {
    let fixture = try OAuth2Fixture()
    let json = Self.authorizationJSON.replacingOccurrences(
      of: #""expires_in":1800}"#, with: #""expires_in":10,"interval":1e300}"#)
    let authorization = try await Self.authorization(fixture, json: json)
    #expect(authorization.interval == 3_153_600_000)
    let poll = Task { try await fixture.client.pollDeviceToken(authorization) }
    try await fixture.clock.waitForSleepers(count: 1)
    fixture.clock.advance(by: .seconds(10))
    let error = await authError { _ = try await poll.value }
    #expect(error?.code == .deviceCodeExpired)
    #expect(fixture.stub.requestCount(path: "/token") == 0)
  }

  @Test func cancellationWhileSleepingEndsPollingPromptly() async throws {
    let fixture = try OAuth2Fixture()
    let authorization = try await Self.authorization(fixture)
    let poll = Task { try await fixture.client.pollDeviceToken(authorization) }
    try await fixture.clock.waitForSleepers(count: 1)
    poll.cancel()
    await #expect(throws: CancellationError.self) { try await poll.value }
    #expect(fixture.stub.requestCount(path: "/token") == 0)
    #expect(fixture.clock.sleeperCount == 0)
  }

  @Test func cancellationDuringAPollEndsPollingPromptly() async throws {
    let fixture = try OAuth2Fixture()
    let authorization = try await Self.authorization(fixture)
    fixture.stub.on(
      "POST", "/token", repeating: true, reply: Self.pendingReply("authorization_pending"))
    fixture.stub.holdResponses()
    let poll = Task { try await fixture.client.pollDeviceToken(authorization) }
    try await fixture.clock.waitForSleepers(count: 1)
    fixture.clock.advance(by: .seconds(5))
    await fixture.stub.waitUntilHeld(count: 1)
    poll.cancel()
    await #expect(throws: CancellationError.self) { try await poll.value }
    #expect(fixture.clock.sleeperCount == 0)
  }
}
