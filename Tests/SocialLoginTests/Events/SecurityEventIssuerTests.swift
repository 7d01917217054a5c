import Foundation
import SocialLoginCrypto
import SocialLoginTesting
import TestPacing
import Testing

@testable import SocialLogin

/// Google's RISC keys and issuer come from its RISC configuration, and Kakao's SSF events
/// from its `sse-configuration`: the published issuer (with Google's trailing slash) and the
/// keys its `jwks_uri` names, refetched for an unknown `kid`.
///
/// Heavy, like the other provider-event suites: a test key is RSA-generated once per process
/// (`RSAPrivateKey.perProcess`), which takes tens of seconds in a loaded debug build.
@Suite(
  "Security event issuers: Google RISC configuration, Kakao SSF", .heavy, .timeLimit(.minutes(10)))
struct SecurityEventIssuerTests {
  static let risc = "https://schemas.openid.net/secevent/risc/event-type/"

  /// A Kakao SET at the clock's time, with `changes` (nil removes).
  static func kakaoEvent(
    _ changes: [String: JSONValue?] = [:],
    type: String = "https://schemas.openid.net/secevent/oauth/event-type/user-unlinked",
    header: [String: JSONValue] = ["typ": "secevent+jwt"], signer: JWSSigner? = nil
  ) throws -> [UInt8] {
    var claims: [String: JSONValue] = [
      "iss": "https://kauth.kakao.com", "aud": .string(EventFixture.kakaoClientID),
      "iat": .number(EventFixture.now), "toe": .number(EventFixture.now - 5), "jti": "k-1",
      "sub": "4242", "events": [.init(stringLiteral: type): [:]],
    ]
    for (key, value) in changes { claims[key] = value }
    return Array(try (signer ?? EventFixture.signer()).signJWT(claims: claims, header: header).utf8)
  }

  /// `claims` as an unsigned (`alg: none`) token and as an HS256 token keyed by `key`.
  static func forged(_ claims: [String: JSONValue], key: String) -> (none: [UInt8], hs256: [UInt8])
  {
    let payload = Base64URL.encode(Array(JSONValue.object(claims).jsonText.utf8))
    let none =
      Base64URL.encode(Array(#"{"alg":"none","typ":"secevent+jwt"}"#.utf8)) + "." + payload + "."
    let input =
      Base64URL.encode(Array(#"{"alg":"HS256","typ":"secevent+jwt"}"#.utf8)) + "." + payload
    let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: Array(key.utf8))
    return (Array(none.utf8), Array((input + "." + Base64URL.encode(mac)).utf8))
  }

  static func err(_ response: ProviderEventResponse) throws -> String? {
    try JSONDecoder().decode(JSONValue.self, from: Data(response.body))["err"]?.stringValue
  }

  // MARK: Google

  @Test func googleIssuerIsTheDiscoveredOneWithItsTrailingSlash() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.google, "g-alice")
    let type = Self.risc + "sessions-revoked"
    // The ID tokens' issuer, without the slash the RISC configuration names, is refused.
    let unslashed = await fixture.post(
      "/google/risc",
      try ProviderCallbackTests.securityEvent(type, ["iss": "https://accounts.google.com"]))
    #expect(unslashed.status == 400, "\(unslashed.text)")
    #expect(try Self.err(unslashed) == "invalid_issuer")
    #expect(try await fixture.stillSignedIn(session))
    let accepted = await fixture.post(
      "/google/risc", try ProviderCallbackTests.securityEvent(type, ["jti": "set-2"]))
    #expect(accepted.status == 202, "\(accepted.text)")
    #expect(session.currentState == .signedOut(.providerSessionsRevoked))
    #expect(fixture.stub.requestCount(path: "/.well-known/risc-configuration") == 1)
  }

  @Test func googleForgeriesAreRefused() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.google, "g-alice")
    let type = Self.risc + "sessions-revoked"
    let claims: [String: JSONValue] = [
      "iss": "https://accounts.google.com/", "aud": .string(EventFixture.googleClientID),
      "iat": .number(EventFixture.now), "jti": "f-1",
      "events": [
        .init(stringLiteral: type): ["subject": ["subject_type": "iss-sub", "sub": "g-alice"]]
      ],
    ]
    let forged = Self.forged(claims, key: EventFixture.googleClientID)
    let unknownKid = try ProviderCallbackTests.securityEvent(
      type, signer: .rs256(RSAPrivateKey.perProcess, keyID: "rotated"))
    let cases: [(String, [UInt8])] = [
      ("alg none", forged.none), ("HS256 keyed by the client id", forged.hs256),
      ("unknown kid", unknownKid), ("malformed JSON", Array("eyJ9.e30.".utf8)),
    ]
    for (name, body) in cases {
      let response = await fixture.post("/google/risc", body)
      #expect(response.status == 400, "\(name): \(response.text)")
      #expect(try await fixture.stillSignedIn(session), "\(name)")
    }
    // The unknown kid refetched the keys and the configuration once each, no more.
    #expect(fixture.stub.requestCount(path: "/.well-known/risc-configuration") == 2)
    #expect(fixture.providerEvents.allSatisfy { $0.1 == .rejected })
  }

  /// A Google provider whose RISC configuration the stub answers with `configurations` in
  /// turn, each naming its own JWKS.
  static func google(
    _ stub: StubTransport, clock: ManualClock
  ) throws -> (LoginClient, ProviderEventReceiver) {
    var configuration = try GoogleConfiguration(
      clientID: EventFixture.googleClientID, environment: [:])
    try configuration.setEndpoint(
      "risc-configuration", to: try #require(URL(string: "https://g.test/risc")))
    let client = try LoginClient(
      providers: [GoogleProvider(configuration: configuration, transport: stub, clock: clock)],
      store: InMemorySessionStore(), clock: clock, policy: RefreshPolicy(proactiveMargin: nil))
    return (client, ProviderEventReceiver(client: client, seen: InMemoryNonceStore(clock: clock)))
  }

  @Test func anUnknownKidRefetchesTheConfigurationThatNamesNewKeys() async throws {
    let stub = StubTransport()
    let clock = ManualClock()
    let old = JWSSigner.rs256(try RSAKeys.rfc7515(), keyID: "old")
    let new = JWSSigner.rs256(RSAPrivateKey.perProcess, keyID: "new")
    func jwks(_ signer: JWSSigner) -> String {
      JWKSet(keys: [signer.publicJWK].compactMap { $0 }).publicJSON.jsonText
    }
    stub.on(
      "GET", "/risc",
      reply: .json(#"{"issuer":"https://accounts.google.com/","jwks_uri":"https://g.test/a"}"#))
    stub.on(
      "GET", "/risc",
      reply: .json(#"{"issuer":"https://accounts.google.com/","jwks_uri":"https://g.test/b"}"#))
    stub.on("GET", "/a", repeating: true, reply: .json(jwks(old)))
    stub.on("GET", "/b", repeating: true, reply: .json(jwks(new)))
    let (client, receiver) = try Self.google(stub, clock: clock)
    let session = try await client.register(
      credential: Credential(accessToken: "a"),
      identity: Identity(provider: .google, subject: "g-alice"))
    let response = await receiver.handle(
      ProviderEventRequest(
        method: "POST", path: "/google/risc",
        body: try ProviderCallbackTests.securityEvent(
          Self.risc + "account-disabled", ["iat": .number(clock.coarseWallTime)], signer: new)))
    #expect(response.status == 202, "\(response.text)")
    #expect(session.currentState == .signedOut(.accountDisabled))
    #expect(stub.requestCount(path: "/risc") == 2)
    // The document is read with a size bound, as a JWKS is.
    let fetch = stub.requests.first { $0.url.path == "/risc" }
    #expect(fetch?.maxResponseBytes == 64 * 1024)
  }

  @Test(arguments: [
    ("unreachable", StubTransport.Reply.failure(AuthError(.network, "offline"))),
    ("5xx", .status(503)),
    ("not JSON", .json("<html>")),
    ("no issuer", .json(#"{"jwks_uri":"https://g.test/a"}"#)),
    (
      "http jwks_uri",
      .json(#"{"issuer":"https://accounts.google.com/","jwks_uri":"http://g.test/a"}"#)
    ),
  ])
  func aConfigurationThatCannotBeUsedAnswers503(name: String, reply: StubTransport.Reply)
    async throws
  {
    let stub = StubTransport()
    let clock = ManualClock()
    stub.on("GET", "/risc", repeating: true, reply: reply)
    let (client, receiver) = try Self.google(stub, clock: clock)
    let session = try await client.register(
      credential: Credential(accessToken: "a"),
      identity: Identity(provider: .google, subject: "g-alice"))
    let response = await receiver.handle(
      ProviderEventRequest(
        method: "POST", path: "/google/risc",
        body: try ProviderCallbackTests.securityEvent(
          Self.risc + "sessions-revoked", ["iat": .number(clock.coarseWallTime)])))
    #expect(response.status == 503, "\(name): \(response.text)")
    #expect(session.currentState.isSignedIn)
  }

  // MARK: Kakao

  @Test(arguments: [
    (
      "https://schemas.openid.net/secevent/oauth/event-type/user-unlinked",
      SignOutReason.appDeauthorized
    ),
    ("https://schemas.openid.net/secevent/oauth/event-type/tokens-revoked", .providerTokensRevoked),
    (
      "https://schemas.openid.net/secevent/caep/event-type/session-revoked",
      .providerSessionsRevoked
    ),
    ("https://schemas.openid.net/secevent/risc/event-type/account-disabled", .accountDisabled),
  ])
  func kakaoSecurityEventsEndTheSession(type: String, reason: SignOutReason) async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.kakao, "4242")
    let other = try await fixture.signIn(.kakao, "4343")
    let response = await fixture.post(
      "/kakao/ssf", try Self.kakaoEvent(type: type),
      headers: ["Content-Type": "application/secevent+jwt"])
    #expect(response.status == 202, "\(response.text)")
    #expect(session.currentState == .signedOut(reason))
    #expect(try await fixture.stillSignedIn(other))
  }

  @Test func kakaoInformationEventsAreAcknowledgedAndRedeliveriesChangeNothing() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.kakao, "4242")
    for (index, type) in ["risc/event-type/account-enabled", "caep/event-type/credential-change"]
      .enumerated()
    {
      let response = await fixture.post(
        "/kakao/ssf",
        try Self.kakaoEvent(
          ["jti": .string("i-\(index)")], type: "https://schemas.openid.net/secevent/" + type))
      #expect(response.status == 202, "\(type): \(response.text)")
    }
    #expect(try await fixture.stillSignedIn(session))
    // The audience may also be one of the configuration's audiences (a native app key).
    let unlink = try Self.kakaoEvent(["aud": "kakao-native-key"])
    #expect(await fixture.post("/kakao/ssf", unlink).status == 202)
    #expect(session.currentState == .signedOut(.appDeauthorized))
    let again = try await fixture.signIn(.kakao, "4242")
    #expect(await fixture.post("/kakao/ssf", unlink).status == 202)
    #expect(try await fixture.stillSignedIn(again))
    #expect(
      fixture.providerEvents.map(\.1) == [.acknowledged, .acknowledged, .applied, .replayed])
  }

  @Test func hostileKakaoSETsAreRefusedWithTheRFC8935Body() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn(.kakao, "4242")
    let claims: [String: JSONValue] = [
      "iss": "https://kauth.kakao.com", "aud": .string(EventFixture.kakaoClientID),
      "iat": .number(EventFixture.now), "jti": "f-1", "sub": "4242",
      "events": ["https://schemas.openid.net/secevent/oauth/event-type/user-unlinked": [:]],
    ]
    let forged = Self.forged(claims, key: EventFixture.kakaoClientID)
    let cases: [(String, [UInt8], String)] = [
      ("wrong aud", try Self.kakaoEvent(["aud": "another-app"]), "invalid_audience"),
      ("wrong iss", try Self.kakaoEvent(["iss": "https://kauth.kakao.com/"]), "invalid_issuer"),
      (
        "unknown kid",
        try Self.kakaoEvent(signer: .rs256(RSAPrivateKey.perProcess, keyID: "rotated")),
        "invalid_key"
      ),
      (
        "another key",
        try Self.kakaoEvent(signer: .rs256(RSAPrivateKey.perProcess, keyID: EventFixture.keyID)),
        "invalid_key"
      ),
      ("alg none", forged.none, "invalid_request"),
      ("HS256 keyed by the REST API key", forged.hs256, "invalid_request"),
      (
        "no typ",
        Array(
          try EventFixture.signer().sign(payload: Array(JSONValue.object(claims).jsonText.utf8))
            .utf8),
        "invalid_request"
      ),
      ("typ JWT", try Self.kakaoEvent(header: ["typ": "JWT"]), "invalid_request"),
      ("no subject", try Self.kakaoEvent(["sub": nil]), "invalid_request"),
      ("empty subject", try Self.kakaoEvent(["sub": ""]), "invalid_request"),
      ("toe not a number", try Self.kakaoEvent(["toe": "yesterday"]), "invalid_request"),
      ("a nonce", try Self.kakaoEvent(["nonce": "n"]), "invalid_request"),
      ("no jti", try Self.kakaoEvent(["jti": nil]), "invalid_request"),
      ("events not an object", try Self.kakaoEvent(["events": "unlinked"]), "invalid_request"),
      (
        "too old", try Self.kakaoEvent(["iat": .number(EventFixture.now - 30 * 86_400)]),
        "invalid_request"
      ),
      ("malformed JSON", Array("eyJ9.e30.".utf8), "invalid_request"),
      ("not a JWT", Array("hello".utf8), "invalid_request"),
      ("empty", [], "invalid_request"),
    ]
    for (name, body, err) in cases {
      let response = await fixture.post("/kakao/ssf", body)
      #expect(response.status == 400, "\(name): \(response.text)")
      #expect(try Self.err(response) == err, "\(name): \(response.text)")
      #expect(try await fixture.stillSignedIn(session), "\(name)")
    }
    let large = await fixture.post("/kakao/ssf", Array(repeating: 0x61, count: 1 << 20))
    #expect(large.status == 413)
    #expect(try await fixture.stillSignedIn(session))
    #expect(fixture.providerEvents.allSatisfy { $0.1 == .rejected })
  }
}
