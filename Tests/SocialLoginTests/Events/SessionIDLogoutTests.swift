import Foundation
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// A back-channel logout token that names only a `sid` finds the session whose ID token
/// recorded it, on a file store as in memory, by a scan bounded by
/// ``ProviderEventReceiver/Configuration/maximumSessionIDScan``.
@Suite("Back-channel logout by sid", .timeLimit(.minutes(1)))
struct SessionIDLogoutTests {
  /// A receiver for the fixture's OpenID provider on `store`.
  static func receiver(
    _ store: any SessionStore, scanLimit: Int = 100_000
  ) throws -> (LoginClient, ProviderEventReceiver) {
    let clock = ManualClock()
    let stub = StubTransport()
    let signer = try EventFixture.signer()
    stub.on(
      "GET", "/jwks", repeating: true,
      reply: .json(JWKSet(keys: [signer.publicJWK].compactMap { $0 }).publicJSON.jsonText))
    let base = try #require(URL(string: EventFixture.issuer))
    let oidc = OIDCProvider(
      id: "corp",
      configuration: .init(
        issuer: base, clientID: EventFixture.clientID, allowedAlgorithms: [.rs256],
        metadata: OIDCProviderMetadata(
          issuer: EventFixture.issuer, authorizationEndpoint: base.appendingPathComponent("a"),
          tokenEndpoint: base.appendingPathComponent("t"),
          jwksURI: base.appendingPathComponent("jwks"))),
      transport: stub, clock: clock)
    let client = try LoginClient(
      providers: [oidc], store: store, clock: clock, policy: RefreshPolicy(proactiveMargin: nil))
    return (
      client,
      ProviderEventReceiver(
        client: client, seen: InMemoryNonceStore(clock: clock),
        configuration: .init(maximumSessionIDScan: scanLimit))
    )
  }

  static func signIn(_ client: LoginClient, _ subject: String, sid: String?) async throws
    -> SessionActor
  {
    var claims: [String: JSONValue] = ["sub": .string(subject)]
    if let sid { claims["sid"] = .string(sid) }
    return try await client.register(
      credential: Credential(accessToken: "at", idToken: Secret(TestTokens.hs256(.object(claims)))),
      identity: Identity(provider: "corp", subject: subject))
  }

  static func logout(_ changes: [String: JSONValue?]) throws -> ProviderEventRequest {
    ProviderEventRequest(
      method: "POST", path: "/oidc/backchannel-logout",
      body: Array(
        FormEncoding.encode([("logout_token", try EventFixture.logoutToken(changes))]).utf8))
  }

  @Test func aSIDOnlyLogoutEndsTheSessionThatRecordedItOnAFileStore() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let (client, receiver) = try Self.receiver(store)
      let alice = try await Self.signIn(client, "alice", sid: "sid-a")
      let bob = try await Self.signIn(client, "bob", sid: "sid-b")
      let carol = try await Self.signIn(client, "carol", sid: nil)
      let answer = await receiver.handle(try Self.logout(["sub": nil, "sid": "sid-b"]))
      #expect(answer.status == 200, "\(answer.text)")
      #expect(bob.currentState == .signedOut(.backChannelLogout))
      #expect(try await store.load(bob.key) == nil)
      #expect(try await store.load(alice.key) != nil)
      #expect(try await store.load(carol.key) != nil)
      // Another process on the same directory finds it too: the sid is in the stored record.
      let (_, other) = try Self.receiver(try FileSessionStore(directory: directory))
      #expect(
        await other.handle(try Self.logout(["sub": nil, "sid": "sid-a", "jti": "bl-2"])).status
          == 200)
      #expect(try await store.load(alice.key) == nil)
      #expect(try await store.load(carol.key) != nil)
    }
  }

  @Test func aScanOverTheLimitIsRefusedAndChangesNothing() async throws {
    let store = InMemorySessionStore()
    let (client, receiver) = try Self.receiver(store, scanLimit: 2)
    var sessions: [SessionActor] = []
    for index in 0..<3 {
      sessions.append(try await Self.signIn(client, "user-\(index)", sid: "sid-\(index)"))
    }
    let refused = await receiver.handle(try Self.logout(["sub": nil, "sid": "sid-1"]))
    #expect(refused.status == 400, "\(refused.text)")
    #expect(refused.text.contains("send 'sub' too"))
    #expect(sessions.allSatisfy { $0.currentState.isSignedIn })
    // Its jti was forgotten: the same token is accepted once the store is small enough, and
    // a token with `sub` never scans.
    let bySubject = await receiver.handle(
      try Self.logout(["sid": "sid-0", "sub": "user-0", "jti": "s"]))
    #expect(bySubject.status == 200)
    #expect(sessions[0].currentState == .signedOut(.backChannelLogout))
    #expect(await receiver.handle(try Self.logout(["sub": nil, "sid": "sid-1"])).status == 200)
    #expect(sessions[1].currentState == .signedOut(.backChannelLogout))
  }
}
