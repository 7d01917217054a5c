import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// Refreshed ID tokens, https-only endpoints, honest capabilities and per-issuer ids.
@Suite(.timeLimit(.minutes(1)))
struct OIDCHardeningTests {
  typealias Stub = OIDCStubProvider

  /// An HS256 ID token of `subject`, issued at the stub clock's start and valid for `lifetime`.
  static func idToken(
    subject: String = "user-1", issuedAt: Int = 1_700_000_000, lifetime: Int = 600
  )
    -> String
  {
    TestTokens.hs256(
      [
        "iss": .string(Stub.issuer), "sub": .string(subject), "aud": .string(Stub.clientID),
        "iat": .number(Double(issuedAt)), "exp": .number(Double(issuedAt + lifetime)),
      ],
      header: ["alg": "HS256", "typ": "JWT", "kid": .string(Stub.keyID)])
  }

  func credential(idToken: String = idToken()) -> Credential {
    Credential(accessToken: "at-0", refreshToken: "rt-0", idToken: Secret(idToken))
  }

  @Test func aRefreshedIDTokenForAnotherSubjectIsRejected() async throws {
    let stub = try Stub()
    stub.stub.on(
      "POST", "/token",
      reply: .json(
        #"{"access_token":"at-1","id_token":"\#(Self.idToken(subject: "mallory"))","expires_in":60}"#
      ))
    let error = await #expect(throws: AuthError.self) {
      try await stub.provider.refresh(credential())
    }
    #expect(error?.code == .invalidToken)
    #expect(error?.message.contains("12.2") == true)
  }

  @Test func verifyRejectsAnIDTokenWithAnEmptySubject() async throws {
    let stub = try Stub()
    let good = try await stub.provider.verify(.idToken(Secret(Self.idToken()), nonce: nil))
    #expect(good.identity.subject == "user-1")
    let error = await #expect(throws: AuthError.self) {
      try await stub.provider.verify(.idToken(Secret(Self.idToken(subject: "")), nonce: nil))
    }
    #expect(error?.code == .invalidToken)
  }

  @Test func aRefreshedIDTokenOfTheSameSubjectIsAccepted() async throws {
    let stub = try Stub()
    let fresh = Self.idToken(issuedAt: 1_700_000_000)
    stub.stub.on(
      "POST", "/token",
      reply: .json(#"{"access_token":"at-1","id_token":"\#(fresh)","expires_in":60}"#))
    let refreshed = try await stub.provider.refresh(credential())
    #expect(refreshed.idToken?.revealed == fresh)
  }

  @Test func anExpiredRefreshedIDTokenIsRejected() async throws {
    let stub = try Stub()
    let stale = Self.idToken(issuedAt: 1_699_990_000)
    stub.stub.on(
      "POST", "/token",
      reply: .json(#"{"access_token":"at-1","id_token":"\#(stale)","expires_in":60}"#))
    let error = await #expect(throws: AuthError.self) {
      try await stub.provider.refresh(credential())
    }
    #expect(error?.code == .invalidToken)
  }

  @Test func aRefreshWithoutIDTokenKeepsIdentityFetchesWorking() async throws {
    let stub = try Stub(userinfo: false)
    stub.stub.on(
      "POST", "/token", reply: .json(#"{"access_token":"at-1","expires_in":3600}"#))
    let refreshed = try await stub.provider.refresh(credential())
    stub.clock.advance(by: .seconds(7200))  // the kept ID token has long expired
    let identity = try await stub.provider.fetchIdentity(for: refreshed)
    #expect(identity.subject == "user-1")
  }

  @Test func plainHTTPIssuersAndEndpointsAreRefusedExceptOnLoopback() async throws {
    let remote = try Stub(issuer: "http://id.example")
    let error = await #expect(throws: AuthError.self) { try await remote.provider.metadata() }
    #expect(error?.code == .configuration)
    #expect(remote.stub.requests.isEmpty, "nothing was fetched over plain http")

    let downgraded = try Stub(documentOverrides: ["token_endpoint": "http://id.example/token"])
    let endpoint = await #expect(throws: AuthError.self) {
      try await downgraded.provider.metadata()
    }
    #expect(endpoint?.code == .configuration)
    #expect(endpoint?.message.contains("token endpoint") == true)

    let keys = try Stub(documentOverrides: ["jwks_uri": "http://keys.example/jwks"])
    #expect(await #expect(throws: AuthError.self) { try await keys.provider.metadata() } != nil)

    for loopback in ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"] {
      let local = try Stub(issuer: loopback)
      #expect(try await local.provider.metadata().issuer == loopback)
    }
  }

  @Test func theJWKSCacheRefusesPlainHTTPToOtherHosts() async throws {
    let stub = StubTransport()
    stub.on("GET", "/jwks", repeating: true, reply: .json(#"{"keys":[]}"#))
    let cache = JWKSCache(
      url: try #require(URL(string: "http://keys.example/jwks")), transport: stub,
      clock: ManualClock())
    let error = await #expect(throws: AuthError.self) { try await cache.keySet() }
    #expect(error?.code == .configuration)
    #expect(stub.requests.isEmpty)
  }

  @Test func loopbackHostsAreExactlyTheLoopbackRanges() {
    for host in [
      "127.0.0.1", "127.255.0.9", "127.0.0.0", "localhost", "LOCALHOST", "::1", "[::1]",
      "0:0:0:0:0:0:0:1", "[0:0::1]",
    ] {
      #expect(URL.isLoopbackHost(host), "\(host)")
    }
    for host in ["128.0.0.1", "127.0.0.1.evil.example", "localhost.evil.example", "127.1", "::2"] {
      #expect(!URL.isLoopbackHost(host), "\(host)")
    }
  }

  /// Issue 34: glibc reads a leading `0` as octal and sends what it cannot read to DNS, so a
  /// host the rule called loopback could be resolved to any machine. The rule is
  /// `inet_pton`'s: what it does not read as an address is a name, and no name but
  /// `localhost` is loopback.
  @Test func loopbackLiteralsAreReadAsTheResolverReadsThem() {
    for host in [
      "127.0.0.08", "127.0.0.010", "0127.0.0.1", "127.00.0.1", "127.0.0.256", "1270.0.0.1",
      " 127.0.0.1", "127.0.0.1 ", "127.0.0.1\u{0}.evil.example", "[127.0.0.1]", "127.0.0.1.",
      "::ffff:127.0.0.1", "::1%lo", "[::1", "", String(repeating: "1", count: 100_000),
      "127.0.0.1" + String(repeating: " ", count: 100),
    ] {
      #expect(!URL.isLoopbackHost(host), "\(host.prefix(40))")
    }
    #expect(!(URL(string: "http://127.0.0.08:9/jwks")?.isHTTPSOrLoopback ?? true))
    #expect(throws: AuthError.self) { try EmulatorHost(parsing: "127.0.0.08:9199") }
  }

  @Test func revocationIsClaimedOnlyWithARevocationEndpoint() async throws {
    let without = try Stub(revocation: false)
    _ = try await without.provider.metadata()
    #expect(!without.provider.capabilities.contains(.revocation))
    let with = try Stub(revocation: true)
    _ = try await with.provider.metadata()
    #expect(with.provider.capabilities.contains(.revocation))

    let base = try #require(URL(string: "https://id.example"))
    let explicit = OIDCProvider(
      id: "corp",
      configuration: .init(
        issuer: base, clientID: "cli",
        metadata: OIDCProviderMetadata(
          issuer: base.absoluteString, authorizationEndpoint: base, tokenEndpoint: base,
          jwksURI: base)))
    #expect(!explicit.capabilities.contains(.revocation), "known without discovery")

    // A sign-out with a provider that turns out not to revoke reports it as unsupported.
    let undiscovered = try Stub(revocation: false)
    let session = SessionActor(
      record: StoredSession(
        key: SessionKey(provider: "corp", subject: "u"), credential: credential()),
      provider: undiscovered.provider, store: InMemorySessionStore(), clock: undiscovered.clock)
    guard case .unsupported = try await session.signOut(revoke: true) else {
      Issue.record("expected .unsupported")
      return
    }
  }

  @Test func eachIssuerGetsItsOwnProviderID() throws {
    let one = ProviderID.oidc(issuer: try #require(URL(string: "https://id.example/realms/a")))
    let two = ProviderID.oidc(issuer: try #require(URL(string: "https://id.example/realms/b")))
    let slash = ProviderID.oidc(issuer: try #require(URL(string: "https://id.example/realms/a/")))
    #expect(one != two)
    #expect(one == slash)
    #expect(one.rawValue.hasPrefix("oidc-id.example-"))
    #expect(one != "oidc")
  }
}
