import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// A back-channel logout received by one replica ends the session on every replica sharing
/// one Redis, and its `jti` — kept in the Redis nonce store — is refused by every replica.
@Suite(.redisAvailable, .timeLimit(.minutes(2)))
struct RedisProviderEventsTests {
  static let issuer = "https://op.example"
  static let secret = Array("redis-provider-events-test-key-32b!".utf8)
  let key = SessionKey(provider: "corp", subject: "alice")

  /// An OIDC provider whose JWKS (one HS256 key) is served by a stub.
  static func provider() throws -> OIDCProvider {
    let stub = StubTransport()
    stub.on(
      "GET", "/jwks", repeating: true,
      reply: .json(
        #"{"keys":[{"kty":"oct","kid":"k1","alg":"HS256","k":"\#(Base64URL.encode(secret))"}]}"#))
    let base = try #require(URL(string: issuer))
    return OIDCProvider(
      id: "corp",
      configuration: .init(
        issuer: base, clientID: "rp-1", allowedAlgorithms: [.hs256],
        metadata: OIDCProviderMetadata(
          issuer: issuer, authorizationEndpoint: base.appendingPathComponent("a"),
          tokenEndpoint: base.appendingPathComponent("t"),
          jwksURI: base.appendingPathComponent("jwks"))),
      transport: stub)
  }

  static func logoutRequest(jti: String, sid: String? = nil) throws -> ProviderEventRequest {
    let now = Date().timeIntervalSince1970.rounded(.down)
    var claims: [String: JSONValue] = [
      "iss": .string(issuer), "aud": "rp-1", "iat": .number(now), "jti": .string(jti),
      "sub": "alice", "events": ["http://schemas.openid.net/event/backchannel-logout": [:]],
    ]
    if let sid {
      claims["sid"] = .string(sid)
      claims["sub"] = nil
    }
    let token = try JWSSigner.hs256(secret: secret, keyID: "k1").signJWT(claims: claims)
    return ProviderEventRequest(
      method: "POST", path: "/oidc/backchannel-logout",
      body: Array(FormEncoding.encode([("logout_token", token)]).utf8))
  }

  /// A replica: a client on a Redis store of its own, its receiver keeping seen ids in Redis.
  func replica(url: String, prefix: String) async throws -> (LoginClient, ProviderEventReceiver) {
    let store = try await RedisSessionStore.connect(
      url: url, sealing: TestSealing.sealing, options: .init(keyPrefix: prefix), environment: [:])
    let client = try LoginClient(
      providers: [try Self.provider()], store: store, policy: RefreshPolicy(proactiveMargin: nil))
    return (client, ProviderEventReceiver(client: client, seen: store.nonces()))
  }

  @Test func aLogoutOnOneReplicaEndsEveryReplicasSessionAndIsNeverReplayed() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let replicas = [
        try await replica(url: server.url, prefix: prefix),
        try await replica(url: server.url, prefix: prefix),
        try await replica(url: server.url, prefix: prefix),
      ]
      let identity = Identity(provider: "corp", subject: "alice")
      _ = try await replicas[0].0.register(
        credential: Credential(accessToken: "at-1"), identity: identity)
      var held: [SessionActor] = []
      for (client, _) in replicas.dropFirst() {
        held.append(try #require(try await client.loadSession(key)))
      }
      let request = try Self.logoutRequest(jti: "bl-\(prefix)")
      #expect(await replicas[0].1.handle(request).status == 200)
      try await WaitTimeout.yieldUntil("every replica ended it", timeout: .seconds(45)) {
        held.allSatisfy { $0.currentState == .signedOut(.backChannelLogout) }
      }
      // Alice signs in again; the captured token, replayed to another replica, ends nothing.
      let again = try await replicas[1].0.register(
        credential: Credential(accessToken: "at-2"), identity: identity)
      let replay = await replicas[2].1.handle(request)
      #expect(replay.status == 400, "\(replay.text)")
      #expect(again.currentState.isSignedIn)
      #expect(try await replicas[2].0.store.load(key) != nil)
    }
  }

  /// A token with only a `sid` finds, on Redis, the session whose ID token recorded it, and
  /// every replica ends it.
  @Test func aSIDOnlyLogoutEndsTheSessionThatRecordedItOnEveryReplica() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let first = try await replica(url: server.url, prefix: prefix)
      let second = try await replica(url: server.url, prefix: prefix)
      func idToken(_ subject: String, _ sid: String) throws -> Secret {
        Secret(
          try JWSSigner.hs256(secret: Self.secret, keyID: "k1").signJWT(claims: [
            "sub": .string(subject), "sid": .string(sid),
          ]))
      }
      for (subject, sid) in [("alice", "sid-a"), ("bob", "sid-b")] {
        _ = try await first.0.register(
          credential: Credential(accessToken: "at", idToken: try idToken(subject, sid)),
          identity: Identity(provider: "corp", subject: subject))
      }
      let bob = try #require(
        try await second.0.loadSession(SessionKey(provider: "corp", subject: "bob")))
      let answer = await first.1.handle(try Self.logoutRequest(jti: "sid-\(prefix)", sid: "sid-b"))
      #expect(answer.status == 200, "\(answer.text)")
      try await WaitTimeout.yieldUntil("the other replica ended bob's", timeout: .seconds(45)) {
        bob.currentState == .signedOut(.backChannelLogout)
      }
      #expect(try await second.0.store.load(key) != nil, "alice's stays")
    }
  }
}
