import Foundation
import SocialLoginCrypto
import SocialLoginTesting
import TestPacing
import Testing

@testable import SocialLogin

@Suite("Apple sessions", .heavy, .timeLimit(.minutes(10)))
struct AppleSessionTests {
  /// A client with the fixture's provider and a session from a native code exchange.
  func signedIn(_ fixture: AppleFixture) async throws -> (LoginClient, SessionActor) {
    let client = try LoginClient(
      providers: [fixture.provider], store: InMemorySessionStore(), clock: fixture.clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(nonce: "raw"))))
    let session = try await client.signInWithApple(
      authorizationCode: "code", identityToken: Secret(try AppleFixture.idToken(nonce: "raw")),
      nonce: "raw")
    return (client, session)
  }

  @Test func aNativeSignInKeepsASessionWithItsRefreshToken() async throws {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    #expect(session.key == SessionKey(provider: .apple, subject: AppleFixture.subject))
    let stored = try await client.store.load(session.key)
    #expect(stored?.credential.refreshToken?.revealed == AppleFixture.refreshToken)
    #expect(stored?.identity?.emailVerified == true)
  }

  @Test func aNativeSignInIsObservedAsALogin() async throws {
    let fixture = try AppleFixture()
    let log = EventLog()
    let client = try LoginClient(
      providers: [fixture.provider], store: InMemorySessionStore(), clock: fixture.clock,
      policy: RefreshPolicy(proactiveMargin: nil), observer: log)
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(nonce: "raw"))))
    _ = try await client.signInWithApple(
      authorizationCode: "code", identityToken: Secret(try AppleFixture.idToken(nonce: "raw")),
      nonce: "raw")
    let kinds = log.all.map(\.kindName)
    #expect(kinds.first == "loginStarted")
    #expect(kinds.last == "loginSucceeded", "\(log.all)")
    #expect(kinds.contains("keySetFetched"), "the ID token's keys were fetched for the login")
    await #expect(throws: AuthError.self) {
      _ = try await client.signInWithApple(authorizationCode: "spent", nonce: "raw")
    }
    guard case .loginFailed(.apple, _, _)? = log.all.last else {
      Issue.record("expected loginFailed, got \(log.all)")
      return
    }
  }

  @Test func completeLoginTakesTheFormPostedCallbackAndKeepsTheName() async throws {
    let fixture = try AppleFixture()
    let client = try LoginClient(
      providers: [fixture.provider], store: InMemorySessionStore(), clock: fixture.clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let handle = try await client.beginLogin(.apple, redirectURI: "https://example.com/apple")
    let query = URLComponents(url: handle.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let nonce = try #require(query.first { $0.name == "nonce" }?.value)
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(nonce: nonce))))
    let body = FormEncoding.encode([
      ("state", handle.state), ("code", "web-code"),
      ("id_token", try AppleFixture.idToken(nonce: nonce)),
      ("user", #"{"name":{"firstName":"Jane","lastName":"Appleseed"}}"#),
    ])
    let session = try await client.completeLogin(
      callback: AuthorizationCallback(formBody: body), expectedState: handle.state)
    #expect(await session.identity?.name == "Jane Appleseed")
    #expect(fixture.form(AppleFixture.tokenPath)["redirect_uri"] == "https://example.com/apple")
    // The name survives a refresh (Apple never sends it again).
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(), refreshToken: nil)))
    _ = try await session.forceRefresh()
    #expect(await session.credential?.extra[AppleProvider.userKey] != nil)
    #expect(
      try await fixture.provider.fetchIdentity(for: #require(await session.credential)).name
        == "Jane Appleseed")
  }

  @Test func invalidGrantOnRefreshSignsOutWithATypedReason() async throws {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    fixture.stub.on(
      "POST", AppleFixture.tokenPath, repeating: true,
      reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
    _ = await authError { _ = try await session.forceRefresh() }
    #expect(session.currentState == .signedOut(.refreshTokenRevoked))
    #expect(try await client.store.load(session.key) == nil)
  }

  @Test(
    arguments: [
      StubTransport.Reply.json(#"{"error":"invalid_client"}"#, status: 400),
      .status(502, body: "<html>Bad Gateway</html>"), .status(200, body: ""),
      .json(#"{"access_token":"x","#), .failure(AuthError(.network, "connection reset")),
    ])
  func otherAnswersKeepTheSession(reply: StubTransport.Reply) async throws {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    fixture.stub.on("POST", AppleFixture.tokenPath, repeating: true, reply: reply)
    _ = await authError { _ = try await session.forceRefresh() }
    #expect(session.currentState.isSignedIn)
    #expect(
      try await client.store.load(session.key)?.credential.refreshToken?.revealed
        == AppleFixture.refreshToken)
  }

  @Test func aFreshTokenIsRefreshedWhenTheCurrentOneWouldNotLast() async throws {
    let fixture = try AppleFixture()
    let (_, session) = try await signedIn(fixture)
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(
        AppleFixture.tokenBody(idToken: try AppleFixture.idToken(), refreshToken: nil)))
    fixture.clock.advance(by: .seconds(3000))  // 600 s left of 3600
    _ = try await session.freshAccessToken(minimumTTL: .seconds(1200))
    #expect(fixture.stub.requestCount(path: AppleFixture.tokenPath) == 2)
    #expect(await session.credential?.refreshToken?.revealed == AppleFixture.refreshToken)
  }

  @Test func automaticRefreshWaitsADayAfterTheTokenWasIssued() {
    let issued = Date(timeIntervalSince1970: 1_700_000_000)
    let credential = Credential(
      accessToken: "a", refreshToken: "r", expiresAt: issued.addingTimeInterval(3600),
      issuedAt: issued)
    func planned(_ interval: Duration?) -> Date {
      SessionActor.proactiveRefreshTime(
        of: credential, expiry: issued.addingTimeInterval(3600), now: issued,
        margin: .seconds(120), leeway: .seconds(30), interval: interval)
    }
    #expect(planned(nil) == issued.addingTimeInterval(3600 - 120))
    #expect(planned(.seconds(86_400)) == issued.addingTimeInterval(86_400))
    // An interval shorter than the margin rule changes nothing.
    #expect(planned(.seconds(60)) == issued.addingTimeInterval(3600 - 120))
  }

  @Test func accountDeletionRevokesThenSignsOut() async throws {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    fixture.stub.on("POST", AppleFixture.revokePath, reply: .status(500))
    _ = await authError { try await client.deleteAccount(session.key) }
    #expect(session.currentState.isSignedIn)  // kept: the deletion can be retried
    fixture.stub.on("POST", AppleFixture.revokePath, reply: .status(200))
    try await client.deleteAccount(session.key)
    #expect(session.currentState == .signedOut(.accountDeleted))
    #expect(try await client.store.load(session.key) == nil)
    #expect(fixture.form(AppleFixture.revokePath, index: 1)["token_type_hint"] == "refresh_token")
  }

  static func notification(
    type: String, audience: String = AppleFixture.webClientID, jti: String? = "abc",
    exp: Double? = 1_700_086_400
  ) throws -> [UInt8] {
    let events = JSONValue.object([
      "type": .string(type), "sub": .string(AppleFixture.subject),
      "event_time": 1_700_000_000_000,
    ]).jsonText
    var claims: [String: JSONValue] = [
      "iss": "https://appleid.apple.com", "aud": .string(audience), "iat": 1_700_000_000,
      "events": .string(events),
    ]
    if let jti { claims["jti"] = .string(jti) }
    if let exp { claims["exp"] = .number(exp) }
    let payload = try AppleFixture.signer().signJWT(claims: claims)
    return Array(JSONValue.object(["payload": .string(payload)]).jsonText.utf8)
  }

  @Test(
    arguments: [
      ("consent-revoked", SignOutReason.consentRevoked), ("account-delete", .accountDeleted),
      ("account-deleted", .accountDeleted),
    ])
  func notificationsThatEndConsentEndTheSession(type: String, reason: SignOutReason)
    async throws
  {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    let event = try await client.handleAppleNotification(
      body: try Self.notification(type: type), seen: InMemoryNonceStore(clock: fixture.clock))
    #expect(event.subject == AppleFixture.subject)
    #expect(event.kind.signOutReason == reason)
    #expect(event.eventTime == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(session.currentState == .signedOut(reason))
    #expect(try await client.store.load(session.key) == nil)
  }

  @Test(arguments: [
    ("email-disabled", AppleServerNotification.Kind.emailDisabled),
    ("email-enabled", .emailEnabled), ("something-new", .other("something-new")),
  ])
  func emailNotificationsKeepTheSession(type: String, kind: AppleServerNotification.Kind)
    async throws
  {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    let event = try await client.handleAppleNotification(
      body: try Self.notification(type: type), seen: InMemoryNonceStore(clock: fixture.clock))
    #expect(event.kind == kind)
    #expect(session.currentState.isSignedIn)
  }

  @Test func forgedOrForeignNotificationsAreRefused() async throws {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    let foreign = try Self.notification(type: "account-delete", audience: "com.other")
    let error = await authError {
      _ = try await client.handleAppleNotification(body: foreign, seen: InMemoryNonceStore())
    }
    #expect(error?.joseError?.reason == .audienceMismatch)
    let forged = TestTokens.hs256(["iss": "https://appleid.apple.com"])
    let bad = await authError {
      _ = try await client.handleAppleNotification(
        body: Array(#"{"payload":"\#(forged)"}"#.utf8), seen: InMemoryNonceStore())
    }
    #expect(bad?.code == .invalidToken)
    let empty = await authError {
      _ = try await client.handleAppleNotification(body: [], seen: InMemoryNonceStore())
    }
    #expect(empty?.code == .invalidResponse)
    #expect(session.currentState.isSignedIn)
  }

  /// Issue 34: a captured consent-revoked body posted again ends nothing: its `jti` was kept
  /// until its `exp`. A session made after the first delivery stays signed in.
  @Test func aReplayedNotificationEndsNothing() async throws {
    let fixture = try AppleFixture()
    let seen = InMemoryNonceStore(clock: fixture.clock)
    let (client, first) = try await signedIn(fixture)
    let body = try Self.notification(type: "consent-revoked")
    try await client.handleAppleNotification(body: body, seen: seen)
    #expect(first.currentState == .signedOut(.consentRevoked))
    let (_, second) = try await signedInAgain(fixture, client: client)
    let replay = await authError {
      try await client.handleAppleNotification(body: body, seen: seen)
    }
    #expect(replay?.code == .replayed)
    #expect(second.currentState.isSignedIn)
    // Another notification (another jti) still acts.
    try await client.handleAppleNotification(
      body: try Self.notification(type: "consent-revoked", jti: "def"), seen: seen)
    #expect(second.currentState == .signedOut(.consentRevoked))
  }

  @Test func aNotificationWithoutExpOrJtiOrPastItsExpIsRefused() async throws {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    let seen = InMemoryNonceStore(clock: fixture.clock)
    for body in [
      try Self.notification(type: "consent-revoked", exp: nil),
      try Self.notification(type: "consent-revoked", jti: nil),
      try Self.notification(type: "consent-revoked", jti: ""),
      try Self.notification(type: "consent-revoked", exp: 1_699_990_000),
      try Self.notification(
        type: "consent-revoked", jti: String(repeating: "j", count: 257)),
    ] {
      let error = await authError {
        try await client.handleAppleNotification(body: body, seen: seen)
      }
      #expect(error != nil)
      #expect(error?.code != .replayed)
    }
    #expect(session.currentState.isSignedIn)
    #expect(seen.count == 0, "a refused notification is not remembered")
  }

  @Test func aNotificationForAnotherAppLeavesTheSessionSignedIn() async throws {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)  // made through the web client id
    let seen = InMemoryNonceStore(clock: fixture.clock)
    let event = try await client.handleAppleNotification(
      body: try Self.notification(type: "consent-revoked", audience: AppleFixture.appClientID),
      seen: seen)
    #expect(event.clientID == AppleFixture.appClientID)
    #expect(session.currentState.isSignedIn)
    try await client.handleAppleNotification(
      body: try Self.notification(type: "consent-revoked", jti: "web"), seen: seen)
    #expect(session.currentState == .signedOut(.consentRevoked))
  }

  @Test func aNotificationThatFailsToActCanBeDeliveredAgain() async throws {
    let fixture = try AppleFixture()
    let (client, session) = try await signedIn(fixture)
    let seen = InMemoryNonceStore(clock: fixture.clock)
    let failing = try LoginClient(
      providers: [fixture.provider], store: UnreadableStore(), clock: fixture.clock)
    let body = try Self.notification(type: "account-delete")
    let error = await authError {
      try await failing.handleAppleNotification(body: body, seen: seen)
    }
    #expect(error?.code == .storageFailed)
    try await client.handleAppleNotification(body: body, seen: seen)
    #expect(session.currentState == .signedOut(.accountDeleted))
  }

  /// A second sign-in of the fixture's user on `client`, after the first one ended.
  func signedInAgain(_ fixture: AppleFixture, client: LoginClient) async throws
    -> (LoginClient, SessionActor)
  {
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(nonce: "raw2"))))
    let session = try await client.signInWithApple(
      authorizationCode: "code2", identityToken: Secret(try AppleFixture.idToken(nonce: "raw2")),
      nonce: "raw2")
    return (client, session)
  }
}

/// A store whose reads fail: acting on a notification fails after it verified.
struct UnreadableStore: SessionStore {
  func load(_ key: SessionKey) async throws -> StoredSession? {
    throw AuthError(.storageFailed, "unreachable (test)")
  }
  func loadAll() async throws -> StoreSnapshot { StoreSnapshot(sessions: []) }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    throw AuthError(.storageFailed, "unreachable (test)")
  }
  func delete(_ key: SessionKey) async throws {}
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool { false }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    throw AuthError(.storageFailed, "unreachable (test)")
  }
}
