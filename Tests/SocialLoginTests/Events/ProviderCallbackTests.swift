import Foundation
import SocialLoginCrypto
import SocialLoginTesting
import TestPacing
import Testing

@testable import SocialLogin

@Suite("Provider events: Google RISC, Facebook, Kakao, Apple", .heavy, .timeLimit(.minutes(10)))
struct ProviderCallbackTests {
  static let risc = "https://schemas.openid.net/secevent/risc/event-type/"
  static let oauth = "https://schemas.openid.net/secevent/oauth/event-type/"

  /// A SET from Google about `subject` at the clock's time, with `changes` (nil removes).
  static func securityEvent(
    _ type: String, subject: String = "g-alice", _ changes: [String: JSONValue?] = [:],
    signer: JWSSigner? = nil
  ) throws -> [UInt8] {
    var claims: [String: JSONValue] = [
      "iss": "https://accounts.google.com/", "aud": .string(EventFixture.googleClientID),
      "iat": .number(EventFixture.now), "jti": "set-1",
      "events": [
        type: [
          "subject": [
            "subject_type": "iss-sub", "iss": "https://accounts.google.com/",
            "sub": .string(subject),
          ]
        ]
      ],
    ]
    for (key, value) in changes { claims[key] = value }
    let token = try (signer ?? EventFixture.signer()).signJWT(
      claims: claims, header: ["typ": "secevent+jwt"])
    return Array(token.utf8)
  }

  @Test(arguments: [
    (risc + "sessions-revoked", SignOutReason.providerSessionsRevoked),
    (oauth + "tokens-revoked", .providerTokensRevoked),
    (risc + "account-disabled", .accountDisabled),
    (risc + "account-purged", .accountDeleted),
  ])
  func riscEventsEndTheGoogleSession(type: String, reason: SignOutReason) async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.google, "g-alice")
    let other = try await fixture.signIn(.google, "g-bob")
    let response = await fixture.post(
      "/google/risc", try Self.securityEvent(type),
      headers: ["Content-Type": "application/secevent+jwt"])
    #expect(response.status == 202, "\(response.text)")
    #expect(session.currentState == .signedOut(reason))
    #expect(try await fixture.store.deletionReason(for: session.key) == reason)
    #expect(try await fixture.stillSignedIn(other))
  }

  @Test func aTokenRevokedEventEndsTheSessionHoldingThatRefreshToken() async throws {
    let fixture = try EventFixture()
    let refreshToken = "1//0abcdefghijklmnop-refresh-token-of-alice"
    let alice = try await fixture.client.register(
      credential: Credential(accessToken: "at", refreshToken: Secret(refreshToken)),
      identity: Identity(provider: .google, subject: "g-alice"))
    let bob = try await fixture.client.register(
      credential: Credential(accessToken: "at", refreshToken: "1//0zzzzzzzzzzzzzzzz-of-bob"),
      identity: Identity(provider: .google, subject: "g-bob"))
    func event(_ algorithm: String, _ token: String, jti: String) throws -> [UInt8] {
      try Self.securityEvent(
        Self.oauth + "token-revoked",
        [
          "jti": .string(jti),
          "events": [
            .init(stringLiteral: Self.oauth + "token-revoked"): [
              "subject": [
                "subject_type": "oauth_token", "token_type": "refresh_token",
                "token_identifier_alg": .string(algorithm), "token": .string(token),
              ]
            ]
          ],
        ])
    }
    let other = await fixture.post(
      "/google/risc", try event("prefix", "1//0nobodynobody", jti: "t-0"))
    #expect(other.status == 202)
    #expect(try await fixture.stillSignedIn(alice))
    let digest = SHA512.hash(SHA512.hash(Array(refreshToken.utf8)))
    let hashed = await fixture.post(
      "/google/risc",
      try event("hash_base64_sha512_sha512", Base64.encode(digest), jti: "t-1"))
    #expect(hashed.status == 202, "\(hashed.text)")
    #expect(alice.currentState == .signedOut(.providerTokensRevoked))
    #expect(try await fixture.stillSignedIn(bob))
    let byPrefix = await fixture.post(
      "/google/risc", try event("prefix", "1//0zzzzzzzzzzzz", jti: "t-2"))
    #expect(byPrefix.status == 202)
    #expect(bob.currentState == .signedOut(.providerTokensRevoked))
  }

  @Test func verificationAndInformationEventsAreAcknowledged() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.google, "g-alice")
    for (index, type) in ["verification", "account-enabled", "account-credential-change-required"]
      .enumerated()
    {
      let response = await fixture.post(
        "/google/risc",
        try Self.securityEvent(Self.risc + type, ["jti": .string("v-\(index)")]))
      #expect(response.status == 202, "\(type): \(response.text)")
    }
    #expect(try await fixture.stillSignedIn(session))
    #expect(fixture.providerEvents.map(\.1) == [.acknowledged, .acknowledged, .acknowledged])
  }

  @Test func aRedeliveredSETIsAcknowledgedAndChangesNothing() async throws {
    let fixture = try EventFixture()
    let body = try Self.securityEvent(Self.risc + "sessions-revoked")
    #expect(await fixture.post("/google/risc", body).status == 202)
    let session = try await fixture.signIn(.google, "g-alice")
    #expect(await fixture.post("/google/risc", body).status == 202)
    #expect(try await fixture.stillSignedIn(session))
    #expect(fixture.providerEvents.map(\.1) == [.noSession, .replayed])
  }

  @Test func hostileSETsAreRefusedWithTheRFC8935Body() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.google, "g-alice")
    let type = Self.risc + "sessions-revoked"
    let cases: [(String, [UInt8], String)] = [
      ("wrong aud", try Self.securityEvent(type, ["aud": "other"]), "invalid_audience"),
      (
        "wrong iss", try Self.securityEvent(type, ["iss": "https://evil.example/"]),
        "invalid_issuer"
      ),
      (
        "another key",
        try Self.securityEvent(
          type, signer: .rs256(RSAPrivateKey.perProcess, keyID: EventFixture.keyID)),
        "invalid_key"
      ),
      ("no events", try Self.securityEvent(type, ["events": nil]), "invalid_request"),
      (
        "events not objects", try Self.securityEvent(type, ["events": [type: "x"]]),
        "invalid_request"
      ),
      ("a nonce", try Self.securityEvent(type, ["nonce": "n"]), "invalid_request"),
      (
        "too old", try Self.securityEvent(type, ["iat": .number(EventFixture.now - 30 * 86_400)]),
        "invalid_request"
      ),
      (
        "no subject",
        try Self.securityEvent(type, ["events": [type: ["subject": ["subject_type": "email"]]]]),
        "invalid_request"
      ),
      ("not a JWT", Array("hello".utf8), "invalid_request"),
      ("empty", [], "invalid_request"),
    ]
    for (name, body, err) in cases {
      let response = await fixture.post("/google/risc", body)
      #expect(response.status == 400, "\(name): \(response.text)")
      let json = try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
      #expect(json["err"]?.stringValue == err, "\(name): \(response.text)")
      #expect(try await fixture.stillSignedIn(session), "\(name)")
    }
    let large = await fixture.post("/google/risc", Array(repeating: 0x61, count: 1 << 20))
    #expect(large.status == 413)
    #expect(try await fixture.stillSignedIn(session))
  }

  // MARK: Facebook

  /// A `signed_request` over `payload`, keyed by `secret`.
  static func signedRequest(_ payload: JSONValue, secret: String = EventFixture.facebookSecret)
    -> String
  {
    let encoded = Base64URL.encode(Array(payload.jsonText.utf8))
    let mac = HMAC<SHA256>.authenticationCode(
      for: Array(encoded.utf8), using: Array(secret.utf8))
    return Base64URL.encode(mac) + "." + encoded
  }

  static func facebookForm(_ signed: String) -> [UInt8] {
    Array(FormEncoding.encode([("signed_request", signed)]).utf8)
  }

  static let facebookPayload: JSONValue = [
    "algorithm": "HMAC-SHA256", "issued_at": .number(EventFixture.now), "user_id": "fb-alice",
  ]

  @Test func theReferenceSignedRequestVerifies() throws {
    let vector =
      "2W-UWQ3-1SPY48Dhs8nq3vA05104zB75zKK9_lWq9no.eyJhbGdvcml0aG0iOiJITUFDLVNIQTI1NiIsImV4cGlyZXMiOjE3NjUwMDAwMDAsImlzc3VlZF9hdCI6MTc2NDkwMDAwMCwidXNlcl9pZCI6IjEwMTYwMDAwMDAwMDAwMDAxIn0"
    let user = try ProviderEventReceiver.verifySignedRequest(
      vector, secret: "test-app-secret", now: 1_764_900_000, maximumAge: 300)
    #expect(user == "10160000000000001")
  }

  @Test func deauthorizeEndsTheFacebookSession() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.facebook, "fb-alice")
    let response = await fixture.post(
      "/facebook/deauthorize", Self.facebookForm(Self.signedRequest(Self.facebookPayload)))
    #expect(response.status == 200, "\(response.text)")
    #expect(session.currentState == .signedOut(.appDeauthorized))
    #expect(fixture.providerEvents.last.map { $0 == (.deauthorize, .applied) } == true)
  }

  @Test func dataDeletionAnswersAStatusURLThatIsServed() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.facebook, "fb-alice")
    let response = await fixture.post(
      "/facebook/data-deletion", Self.facebookForm(Self.signedRequest(Self.facebookPayload)))
    #expect(response.status == 200, "\(response.text)")
    #expect(session.currentState == .signedOut(.dataDeletionRequested))
    #expect(try await fixture.store.load(session.key) == nil)
    let json = try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
    let code = try #require(json["confirmation_code"]?.stringValue)
    let url = try #require(json["url"]?.stringValue)
    #expect(url == "https://app.example/events/facebook/data-deletion/status?code=\(code)")
    let page = await fixture.receiver.handle(
      ProviderEventRequest(
        method: "GET", path: "/events/facebook/data-deletion/status?code=\(code)"))
    #expect(page.status == 200)
    #expect(page.text.contains(code))
    let unknown = await fixture.receiver.handle(
      ProviderEventRequest(method: "GET", path: "/events/facebook/data-deletion/status?code=<x>"))
    #expect(unknown.status == 404)
  }

  @Test func hostileSignedRequestsAreRefused() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.facebook, "fb-alice")
    let good = Self.signedRequest(Self.facebookPayload)
    let parts = good.split(separator: ".")
    let cases: [(String, [UInt8])] = [
      (
        "HMAC with the app id",
        Self.facebookForm(
          Self.signedRequest(Self.facebookPayload, secret: EventFixture.facebookAppID))
      ),
      (
        "payload swapped",
        Self.facebookForm(
          String(parts[0]) + "."
            + Base64URL.encode(Array(#"{"algorithm":"HMAC-SHA256","user_id":"fb-alice"}"#.utf8)))
      ),
      (
        "another algorithm",
        Self.facebookForm(
          Self.signedRequest([
            "algorithm": "none", "issued_at": .number(EventFixture.now), "user_id": "fb-alice",
          ]))
      ),
      (
        "too old",
        Self.facebookForm(
          Self.signedRequest([
            "algorithm": "HMAC-SHA256", "issued_at": .number(EventFixture.now - 86_400),
            "user_id": "fb-alice",
          ]))
      ),
      (
        "no user",
        Self.facebookForm(
          Self.signedRequest(["algorithm": "HMAC-SHA256", "issued_at": .number(EventFixture.now)]))
      ),
      ("not signed", Self.facebookForm("abc")),
      ("not a form", Array(#"{"signed_request":"x"}"#.utf8)),
      ("empty", []),
    ]
    for route in ["/facebook/deauthorize", "/facebook/data-deletion"] {
      for (name, body) in cases {
        let response = await fixture.post(route, body)
        #expect(response.status == 400, "\(route) \(name): \(response.text)")
        #expect(try await fixture.stillSignedIn(session), "\(route) \(name)")
      }
      let large = await fixture.post(route, Array(repeating: 0x61, count: 1 << 20))
      #expect(large.status == 413)
    }
    #expect(try await fixture.stillSignedIn(session))
  }

  // MARK: Kakao

  @Test(arguments: [
    ("UNLINK_FROM_APPS", SignOutReason.appDeauthorized), ("ACCOUNT_DELETE", .accountDeleted),
    ("FORCED_ACCOUNT_DELETE", .accountDeleted), ("UNLINK_FROM_ADMIN", .appDeauthorized),
  ])
  func kakaoUnlinkEndsTheSession(referrer: String, reason: SignOutReason) async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn("kakao", "4242")
    let response = await fixture.post(
      "/kakao/unlink",
      Array("app_id=77&user_id=4242&referrer_type=\(referrer)".utf8),
      headers: ["Authorization": "KakaoAK \(EventFixture.kakaoAdminKey)"])
    #expect(response.status == 200)
    #expect(session.currentState == .signedOut(reason))
  }

  @Test func kakaoUnlinkWithoutTheAdminKeyIsRefused() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn("kakao", "4242")
    let body = Array("app_id=77&user_id=4242&referrer_type=UNLINK_FROM_APPS".utf8)
    for header in [
      [:], ["Authorization": "KakaoAK wrong"],
      ["Authorization": "Bearer \(EventFixture.kakaoAdminKey)"],
    ] {
      #expect(await fixture.post("/kakao/unlink", body, headers: header).status == 401)
    }
    let noUser = await fixture.post(
      "/kakao/unlink", Array("app_id=77".utf8),
      headers: ["Authorization": "KakaoAK \(EventFixture.kakaoAdminKey)"])
    #expect(noUser.status == 400)
    #expect(try await fixture.stillSignedIn(session))
  }

  // MARK: Apple

  @Test func appleNotificationsAreReceivedOnceAndForgeriesRefused() async throws {
    let apple = try AppleFixture()
    let client = try LoginClient(
      providers: [apple.provider], store: InMemorySessionStore(), clock: apple.clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    apple.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(nonce: "raw"))))
    let session = try await client.signInWithApple(
      authorizationCode: "code", identityToken: Secret(try AppleFixture.idToken(nonce: "raw")),
      nonce: "raw")
    let receiver = ProviderEventReceiver(
      client: client, seen: InMemoryNonceStore(clock: apple.clock))
    func post(_ body: [UInt8]) async -> ProviderEventResponse {
      await receiver.handle(
        ProviderEventRequest(method: "POST", path: "/apple/notifications", body: body))
    }
    let forged = Array(
      #"{"payload":"\#(TestTokens.hs256(["iss": "https://appleid.apple.com"]))"}"#.utf8)
    #expect(await post(forged).status == 400)
    #expect(await post([]).status == 400)
    #expect(session.currentState.isSignedIn)
    let body = try AppleSessionTests.notification(type: "consent-revoked")
    #expect(await post(body).status == 200)
    #expect(session.currentState == .signedOut(.consentRevoked))
    #expect(await post(body).status == 200, "a redelivery is answered 200 and does nothing")
  }
}
