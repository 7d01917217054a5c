import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// The receiver's Apple route owns what `LoginClient.handleAppleNotification(body:seen:)`
/// does (the wrapper calls the same code): the app check (`aud`, and the session's own app)
/// and the replay check (`jti` once, `iat` bounded).
@Suite("Provider events: Apple notifications on the receiver", .heavy, .timeLimit(.minutes(10)))
struct AppleReceiverTests {
  /// A notification Apple would send, issued at `iat` (the fixture clock starts at
  /// 1_700_000_000) and valid for a day after it unless told.
  static func notification(
    type: String = "consent-revoked", audience: String = AppleFixture.webClientID,
    jti: String = "n-1", iat: Double = 1_700_000_000, exp: Double? = nil
  ) throws -> [UInt8] {
    let events = JSONValue.object([
      "type": .string(type), "sub": .string(AppleFixture.subject), "event_time": 1_700_000_000_000,
    ]).jsonText
    let payload = try AppleFixture.signer().signJWT(claims: [
      "iss": "https://appleid.apple.com", "aud": .string(audience), "iat": .number(iat),
      "exp": .number(exp ?? iat + 86_400), "jti": .string(jti), "events": .string(events),
    ])
    return Array(JSONValue.object(["payload": .string(payload)]).jsonText.utf8)
  }

  struct Setup {
    let fixture: AppleFixture
    let client: LoginClient
    let seen: InMemoryNonceStore
    let receiver: ProviderEventReceiver

    init(maximumAge: TimeInterval = 7 * 86_400) throws {
      fixture = try AppleFixture()
      client = try LoginClient(
        providers: [fixture.provider], store: InMemorySessionStore(), clock: fixture.clock,
        policy: RefreshPolicy(proactiveMargin: nil))
      seen = InMemoryNonceStore(clock: fixture.clock)
      receiver = ProviderEventReceiver(
        client: client, seen: seen, configuration: .init(maximumSecurityEventAge: maximumAge))
    }

    func signIn(_ nonce: String = "raw") async throws -> SessionActor {
      fixture.stub.on(
        "POST", AppleFixture.tokenPath,
        reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(nonce: nonce))))
      return try await client.signInWithApple(
        authorizationCode: Secret("code-\(nonce)"),
        identityToken: Secret(try AppleFixture.idToken(nonce: nonce)), nonce: Secret(nonce))
    }

    func post(_ body: [UInt8]) async -> ProviderEventResponse {
      await receiver.handle(
        ProviderEventRequest(method: "POST", path: "/apple/notifications", body: body))
    }
  }

  @Test func aNotificationIssuedLongerAgoThanTheBoundIsRefusedAndChangesNothing() async throws {
    let setup = try Setup(maximumAge: 3600)
    let session = try await setup.signIn()
    // Still before its exp, but issued two hours before the clock's now.
    let old = try Self.notification(iat: 1_700_000_000 - 7200)
    let response = await setup.post(old)
    #expect(response.status == 400, "\(response.text)")
    #expect(response.text.contains("iat"))
    #expect(session.currentState.isSignedIn)
    #expect(setup.seen.count == 0, "a refused notification is not remembered")
    // The default bound (7 days) takes it, through the wrapper as through the route.
    try await setup.client.handleAppleNotification(body: old, seen: setup.seen)
    #expect(session.currentState == .signedOut(.consentRevoked))
  }

  @Test func theWrapperRefusesANotificationOlderThanSevenDays() async throws {
    let setup = try Setup()
    let session = try await setup.signIn()
    let ancient = try Self.notification(iat: 1_700_000_000 - 8 * 86_400, exp: 1_700_086_400)
    let error = await #expect(throws: AuthError.self) {
      try await setup.client.handleAppleNotification(body: ancient, seen: setup.seen)
    }
    #expect(error?.code == .invalidToken)
    #expect(session.currentState.isSignedIn)
  }

  @Test func aReplayToTheRouteIsAnswered200AndEndsTheNewLoginNot() async throws {
    let setup = try Setup()
    let first = try await setup.signIn()
    let body = try Self.notification()
    #expect(await setup.post(body).status == 200)
    #expect(first.currentState == .signedOut(.consentRevoked))
    let second = try await setup.signIn("raw2")
    #expect(await setup.post(body).status == 200, "Apple stops redelivering on 200")
    #expect(second.currentState.isSignedIn)
    // The route and the wrapper keep ids in one place: the wrapper sees the replay too.
    let error = await #expect(throws: AuthError.self) {
      try await setup.client.handleAppleNotification(body: body, seen: setup.seen)
    }
    #expect(error?.code == .replayed)
    #expect(second.currentState.isSignedIn)
  }

  @Test func theRouteChecksTheApp() async throws {
    let setup = try Setup()
    let session = try await setup.signIn()  // through the web client id
    let foreign = await setup.post(try Self.notification(audience: "com.other.app", jti: "f"))
    #expect(foreign.status == 400)
    // The service's other app: accepted, but this session was made through the web app.
    #expect(
      await setup.post(try Self.notification(audience: AppleFixture.appClientID)).status == 200)
    #expect(session.currentState.isSignedIn)
    #expect(await setup.post(try Self.notification(jti: "web")).status == 200)
    #expect(session.currentState == .signedOut(.consentRevoked))
  }
}
