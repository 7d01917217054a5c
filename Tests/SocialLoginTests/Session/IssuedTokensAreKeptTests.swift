import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

/// Tokens that a provider issued are never lost. Once a token endpoint answered a refresh with
/// tokens, the refresh token it was sent is spent (X, OIDC providers rotate; some revoke the
/// whole grant when a spent one comes back), so whatever fails afterwards — the new ID
/// token's checks, the key fetch, an identity fetch, the store — the session keeps the new
/// tokens and never sends the spent one again. The real provider actors run on a stub
/// transport, with a real `SessionActor` and store.
@Suite(.timeLimit(.minutes(1)))
struct IssuedTokensAreKeptTests {
  /// Every provider that refreshes (Facebook with renewal by re-exchange).
  enum Kind: String, CaseIterable, Sendable { case x, line, oidc, firebase, facebook }

  /// The steps after the token endpoint's answer that can fail.
  enum Step: String, CaseIterable, Sendable {
    case idTokenValidation, jwksFetch, tokenInspection, identityFetch, storeWrite

    /// Whether the step is a check of the new tokens (the session keeps them, degraded).
    var checksTheNewTokens: Bool {
      self == .idTokenValidation || self == .jwksFetch || self == .tokenInspection
    }
  }

  /// Every (provider, step) pair where the provider has the step: only OpenID Connect checks a
  /// new ID token against fetched keys, only Facebook inspects a renewed token (`debug_token`).
  static let cases: [(Kind, Step)] = Kind.allCases.flatMap { kind in
    Step.allCases.filter { step in
      switch step {
      case .idTokenValidation, .jwksFetch: return kind == .oidc
      case .tokenInspection: return kind == .facebook
      case .identityFetch, .storeWrite: return true
      }
    }.map { (kind, $0) }
  }

  /// An OpenID provider's HS256 signing keys as its JWKS endpoint serves them: they rotate
  /// (the old key leaves the JWKS), and the endpoint can fail.
  final class OIDCKeys: Sendable {
    static let issuer = "https://id.example"
    static let clientID = "client-1"

    struct State: Sendable {
      var current = "k1"
      var failing = false
    }
    private let state = Locked(State())

    static func secret(_ kid: String) -> [UInt8] {
      Array("signing-secret-of-\(kid)-with-at-least-32-bytes".utf8)
    }

    /// Signs with `kid` from now on and publishes only it.
    func rotate(to kid: String) { state.withLock { $0.current = kid } }
    /// Makes the JWKS endpoint answer 503 (or answer again).
    func failJWKS(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func jwks() -> TransportResponse {
      let state = state.withLock { $0 }
      guard !state.failing else { return TransportResponse(status: 503, body: Data("down".utf8)) }
      let key = Base64URL.encode(Self.secret(state.current))
      return TransportResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(
          #"{"keys":[{"kty":"oct","kid":"\#(state.current)","alg":"HS256","k":"\#(key)"}]}"#
            .utf8))
    }

    /// An ID token signed with the current key, issued at `now`.
    func idToken(
      subject: String = "user-1", issuer: String = issuer, now: Date, atHash: String? = nil
    ) -> String {
      let kid = state.withLock { $0.current }
      let iat = now.timeIntervalSince1970.rounded(.down)
      var claims: [String: JSONValue] = [
        "iss": .string(issuer), "sub": .string(subject), "aud": .string(Self.clientID),
        "iat": .number(iat), "exp": .number(iat + 600),
      ]
      if let atHash { claims["at_hash"] = .string(atHash) }
      return TestTokens.hs256(
        .object(claims), header: ["alg": "HS256", "typ": "JWT", "kid": .string(kid)],
        key: Self.secret(kid))
    }
  }

  /// A provider that refreshes, on a stub transport and a manual clock.
  struct Rig: Sendable {
    let stub: StubTransport
    let clock: ManualClock
    let provider: any LoginProvider
    /// An expired credential with refresh token `rt-0`.
    let initial: Credential
    let tokenPath: String
    let identityRoute: (method: String, path: String)
    /// A 200 of the token endpoint issuing refresh token `rt-<n>`.
    let issue: @Sendable (Int) -> StubTransport.Reply
    /// The access token `issue(n)` carries.
    let accessToken: @Sendable (Int) -> String
    /// OpenID Connect only: the signing keys, and a 200 whose new ID token fails its
    /// `at_hash` check.
    var keys: OIDCKeys?
    var issueWithBadIDToken: (@Sendable (Int) -> StubTransport.Reply)?

    /// The refresh tokens sent to the token endpoint, in order (in the form, or for
    /// Facebook's re-exchange in the query).
    var sentRefreshTokens: [String] {
      stub.requests.filter { $0.url.path == tokenPath }.compactMap { request in
        let form = FormEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self))
        let query = FormEncoding.decode(
          URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
            ?? "")
        return (form + query).first { $0.0 == "refresh_token" || $0.0 == "fb_exchange_token" }?.1
      }
    }
  }

  static func rig(_ kind: Kind) throws -> Rig {
    switch kind {
    case .x:
      let stub = StubTransport()
      let clock = ManualClock()
      return Rig(
        stub: stub, clock: clock, provider: try XFixture.provider(stub, clock: clock),
        initial: XFixture.expiredCredential(refresh: "rt-0", clock: clock),
        tokenPath: "/2/oauth2/token", identityRoute: ("GET", "/2/users/me"),
        issue: { .json(XFixture.token("at-\($0)", refresh: "rt-\($0)")) },
        accessToken: { "at-\($0)" })
    case .line:
      let fixture = try LINEFixture()
      return Rig(
        stub: fixture.stub, clock: fixture.clock, provider: fixture.provider,
        initial: Credential(
          accessToken: "at-0", refreshToken: "rt-0", scopes: ["profile", "openid"],
          expiresAt: fixture.clock.wallTime.addingTimeInterval(-60)),
        tokenPath: LINEFixture.tokenPath, identityRoute: ("GET", LINEFixture.profilePath),
        issue: { n in
          .json(
            #"{"token_type":"Bearer","scope":"profile openid","access_token":"at-\#(n)","#
              + #""expires_in":2592000,"refresh_token":"rt-\#(n)"}"#)
        },
        accessToken: { "at-\($0)" })
    case .firebase:
      let fixture = try FirebaseFixture()
      let idToken = Secret(FirebaseWire.idToken(number: 0))
      return Rig(
        stub: fixture.stub, clock: fixture.clock, provider: fixture.provider,
        initial: Credential(
          accessToken: idToken, refreshToken: "rt-0", idToken: idToken,
          expiresAt: fixture.clock.wallTime.addingTimeInterval(-60)),
        tokenPath: FirebaseWire.tokenPath, identityRoute: ("POST", FirebaseWire.lookupPath),
        issue: { .json(FirebaseWire.refreshResponse(number: $0)) },
        accessToken: { FirebaseWire.idToken(number: $0) })
    case .oidc:
      return try oidcRig()
    case .facebook:
      // Renewal re-exchanges the token, which is its own refresh token (60 days).
      let fixture = try FacebookFixture { $0.renewal = .reexchange }
      fixture.stub.on(
        "GET", FacebookFixture.debugPath, repeating: true,
        reply: .json(FacebookFixture.debugBody()))
      return Rig(
        stub: fixture.stub, clock: fixture.clock, provider: fixture.provider,
        initial: Credential(
          accessToken: "rt-0", refreshToken: "rt-0",
          expiresAt: fixture.clock.wallTime.addingTimeInterval(-60)),
        tokenPath: FacebookFixture.tokenPath, identityRoute: ("GET", FacebookFixture.mePath),
        issue: { .json(FacebookFixture.tokenBody("rt-\($0)")) }, accessToken: { "rt-\($0)" })
    }
  }

  /// An `OIDCProvider` with explicit endpoints (token, userinfo, JWKS) on a stub transport.
  static func oidcRig() throws -> Rig {
    let stub = StubTransport()
    let clock = ManualClock()
    let keys = OIDCKeys()
    let base = try #require(URL(string: OIDCKeys.issuer))
    stub.on("GET", "/jwks", repeating: true, reply: .handler { _ in keys.jwks() })
    stub.on(
      "GET", "/userinfo", repeating: true, reply: .json(#"{"sub":"user-1","name":"Alice"}"#))
    let provider = OIDCProvider(
      id: "corp",
      configuration: .init(
        issuer: base, clientID: OIDCKeys.clientID, clientSecret: "client-secret",
        allowedAlgorithms: [.hs256],
        metadata: OIDCProviderMetadata(
          issuer: OIDCKeys.issuer,
          authorizationEndpoint: base.appendingPathComponent("authorize"),
          tokenEndpoint: base.appendingPathComponent("token"),
          userinfoEndpoint: base.appendingPathComponent("userinfo"),
          jwksURI: base.appendingPathComponent("jwks"))),
      transport: stub, clock: clock)
    @Sendable func answer(_ n: Int, idToken: String) -> TransportResponse {
      TransportResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(
          (#"{"access_token":"at-\#(n)","refresh_token":"rt-\#(n)","token_type":"Bearer","#
            + #""expires_in":3600,"id_token":"\#(idToken)"}"#).utf8))
    }
    var rig = Rig(
      stub: stub, clock: clock, provider: provider,
      initial: Credential(
        accessToken: "at-0", refreshToken: "rt-0",
        idToken: Secret(keys.idToken(now: clock.wallTime)),
        expiresAt: clock.wallTime.addingTimeInterval(-60)),
      tokenPath: "/token", identityRoute: ("GET", "/userinfo"),
      issue: { n in .handler { _ in answer(n, idToken: keys.idToken(now: clock.wallTime)) } },
      accessToken: { "at-\($0)" })
    rig.keys = keys
    rig.issueWithBadIDToken = { n in
      .handler { _ in answer(n, idToken: keys.idToken(now: clock.wallTime, atHash: "wrong")) }
    }
    return rig
  }

  static let policy = RefreshPolicy(
    proactiveMargin: nil,
    backoff: BackoffPolicy(baseDelay: .seconds(10), random: { $0.upperBound }))

  /// A session of `rig.initial` in `store`.
  static func session(_ rig: Rig, store: any SessionStore) async throws -> SessionActor {
    let key = SessionKey(provider: rig.provider.id, subject: "user-1")
    let record = try await store.save(
      StoredSession(
        key: key, credential: rig.initial,
        identity: Identity(provider: rig.provider.id, subject: "user-1")),
      expectedVersion: nil)
    return SessionActor(
      record: record, provider: rig.provider, store: store, clock: rig.clock, policy: policy)
  }

  // MARK: The invariant, for every provider that refreshes

  @Test(arguments: cases)
  func aRefreshAnsweredWithTokensKeepsThemWhateverFailsNext(kind: Kind, step: Step)
    async throws
  {
    let rig = try Self.rig(kind)
    let store = FlakyStore(base: InMemorySessionStore())
    let session = try await Self.session(rig, store: store)
    let label = Comment(rawValue: "\(kind.rawValue), \(step.rawValue) fails")

    switch step {
    case .idTokenValidation:
      let issue = try #require(rig.issueWithBadIDToken)
      rig.stub.on(nil, rig.tokenPath, reply: issue(1))
      // The new access token is served at once; the session is degraded.
      #expect(try await session.freshAccessToken() == rig.accessToken(1), label)
    case .jwksFetch:
      let keys = try #require(rig.keys)
      keys.rotate(to: "k2")
      keys.failJWKS(true)
      rig.stub.on(nil, rig.tokenPath, reply: rig.issue(1))
      // The new access token is served at once; the session is degraded.
      #expect(try await session.freshAccessToken() == rig.accessToken(1), label)
      keys.failJWKS(false)
    case .tokenInspection:
      rig.stub.on("GET", FacebookFixture.debugPath, reply: .status(503, body: "down"))
      rig.stub.on(nil, rig.tokenPath, reply: rig.issue(1))
      // The new access token is served at once; the session is degraded.
      #expect(try await session.freshAccessToken() == rig.accessToken(1), label)
    case .identityFetch:
      rig.stub.on(
        rig.identityRoute.method, rig.identityRoute.path, reply: .status(503, body: "down"))
      rig.stub.on(nil, rig.tokenPath, reply: rig.issue(1))
      #expect(try await session.freshAccessToken() == rig.accessToken(1), label)
      let credential = try #require(await session.credential)
      await #expect(throws: (any Error).self, label) {
        _ = try await rig.provider.fetchIdentity(for: credential)
      }
    case .storeWrite:
      store.failWrites(true)
      rig.stub.on(nil, rig.tokenPath, reply: rig.issue(1))
      await #expect(throws: AuthError.self, label) { try await session.freshAccessToken() }
      store.failWrites(false)
    }

    // The new tokens are kept: served, and stored (a failed write is retried without
    // spending anything).
    rig.clock.advance(by: .seconds(60))
    #expect(try await session.freshAccessToken() == rig.accessToken(1), label)
    let stored = try await store.load(session.key)
    #expect(stored?.credential.refreshToken == "rt-1", label)
    #expect(rig.sentRefreshTokens == ["rt-0"], label)
    if step.checksTheNewTokens {
      // The unverified new ID token is not stored: a stored ID token was verified.
      #expect(stored?.credential.idToken == rig.initial.idToken, label)
      guard case .degraded = session.currentState else {
        Issue.record(
          "\(kind.rawValue), \(step.rawValue): expected degraded, got \(session.currentState)")
        return
      }
    }

    // The next refresh spends the new refresh token; the spent one is never sent again.
    rig.clock.advance(by: .seconds(70 * 86_400))
    rig.stub.on(nil, rig.tokenPath, reply: rig.issue(2))
    #expect(try await session.freshAccessToken() == rig.accessToken(2), label)
    #expect(rig.sentRefreshTokens == ["rt-0", "rt-1"], label)
    #expect(session.currentState == .signedIn, label)
    #expect(try await store.load(session.key)?.credential.refreshToken == "rt-2", label)
  }

  // MARK: Signing-key rotation

  /// The reported run: the provider rotates its ID-token signing key (the old key leaves the
  /// JWKS); the refresh still succeeds and keeps the rotated refresh token, and the next one
  /// spends it.
  @Test func aRotatedSigningKeyNeitherFailsTheRefreshNorLosesItsTokens() async throws {
    let rig = try Self.oidcRig()
    let keys = try #require(rig.keys)
    let store = InMemorySessionStore()
    let session = try await Self.session(rig, store: store)
    keys.rotate(to: "k2")
    rig.stub.on("POST", rig.tokenPath, reply: rig.issue(1))

    #expect(try await session.freshAccessToken() == "at-1")
    #expect(session.currentState == .signedIn)
    let stored = try #require(try await store.load(session.key))
    #expect(stored.credential.refreshToken == "rt-1")
    #expect(stored.credential.idToken != rig.initial.idToken)

    rig.clock.advance(by: .seconds(7200))
    rig.stub.on("POST", rig.tokenPath, reply: rig.issue(2))
    #expect(try await session.freshAccessToken() == "at-2")
    #expect(rig.sentRefreshTokens == ["rt-0", "rt-1"])
  }

  /// An identity fetch reads the stored ID token's claims; it does not verify its signature
  /// against today's keys, which no longer hold the key that signed it.
  @Test func identityFetchesReadTheStoredIDTokenAfterItsKeyWasRetired() async throws {
    let rig = try Self.oidcRig()
    let keys = try #require(rig.keys)
    keys.rotate(to: "k2")
    let identity = try await rig.provider.fetchIdentity(for: rig.initial)
    #expect(identity.subject == "user-1")
    #expect(identity.name == "Alice")
  }

  /// A stored ID token for another issuer or client is still refused: only the signature is
  /// not checked again.
  @Test func identityFetchesStillRefuseAStoredIDTokenOfAnotherIssuer() async throws {
    let rig = try Self.oidcRig()
    let keys = try #require(rig.keys)
    var credential = rig.initial
    credential.idToken = Secret(
      keys.idToken(issuer: "https://evil.example", now: rig.clock.wallTime))
    let error = await #expect(throws: AuthError.self) {
      _ = try await rig.provider.fetchIdentity(for: credential)
    }
    #expect(error?.joseError?.reason == .issuerMismatch)
  }

  // MARK: Identity mismatch

  enum Mismatch: String, CaseIterable, Sendable {
    /// A verified new ID token of another subject.
    case otherSubject
    /// A new ID token of another issuer.
    case otherIssuer
    /// Another subject, in a token whose key cannot be fetched.
    case otherSubjectUnverified
  }

  @Test(arguments: Mismatch.allCases)
  func aRefreshedIDTokenOfAnotherAccountSignsOutWithIdentityMismatch(_ mismatch: Mismatch)
    async throws
  {
    let rig = try Self.oidcRig()
    let keys = try #require(rig.keys)
    let store = InMemorySessionStore()
    let session = try await Self.session(rig, store: store)
    let clock = rig.clock
    let idToken: @Sendable () -> String
    switch mismatch {
    case .otherSubject:
      idToken = { keys.idToken(subject: "mallory", now: clock.wallTime) }
    case .otherIssuer:
      idToken = { keys.idToken(issuer: "https://evil.example", now: clock.wallTime) }
    case .otherSubjectUnverified:
      keys.rotate(to: "k2")
      keys.failJWKS(true)
      idToken = { keys.idToken(subject: "mallory", now: clock.wallTime) }
    }
    rig.stub.on(
      "POST", rig.tokenPath,
      reply: .handler { _ in
        TransportResponse(
          status: 200, headers: ["Content-Type": "application/json"],
          body: Data(
            #"{"access_token":"at-1","refresh_token":"rt-1","expires_in":3600,"id_token":"\#(idToken())"}"#
              .utf8))
      })

    let error = await #expect(throws: AuthError.self, "\(mismatch)") {
      try await session.freshAccessToken()
    }
    #expect(error?.code == .signedOut, "\(mismatch)")
    #expect(error?.signOutReason == .identityMismatch, "\(mismatch)")
    #expect(session.currentState == .signedOut(.identityMismatch), "\(mismatch)")
    #expect(try await store.load(session.key) == nil, "\(mismatch)")
    #expect(await session.credential == nil, "\(mismatch)")
  }

  // MARK: A lost refresh answer

  /// A refresh whose request was sent and whose answer never came (a reset after the request
  /// was written) is remembered; when the provider then refuses the refresh token, the
  /// sign-out says the answer was lost, not that the token expired.
  @Test func invalidGrantAfterALostAnswerSignsOutWithRefreshResponseLost() async throws {
    let rig = try Self.oidcRig()
    let store = InMemorySessionStore()
    let session = try await Self.session(rig, store: store)
    rig.stub.on("POST", rig.tokenPath, reply: .failure(URLError(.networkConnectionLost)))
    let lost = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(lost?.answerLost == true)
    #expect(try await store.load(session.key)?.refreshAnswerLost == true)

    rig.clock.advance(by: .seconds(60))
    rig.stub.on("POST", rig.tokenPath, reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.signOutReason == .refreshResponseLost)
    #expect(session.currentState == .signedOut(.refreshResponseLost))
    #expect(try await store.load(session.key) == nil)
  }

  /// The next process (the next `sociallogin token`) knows that the answer was lost: it is
  /// stored with the session, in memory or in a file.
  @Test(arguments: [false, true])
  func aLostAnswerIsRememberedByTheNextProcess(inFiles: Bool) async throws {
    try await withTemporaryDirectory { directory in
      let store: any SessionStore =
        inFiles ? try FileSessionStore(directory: directory) : InMemorySessionStore()
      try await lostAnswerIsRemembered(store: store)
    }
  }

  func lostAnswerIsRemembered(store: any SessionStore) async throws {
    let rig = try Self.oidcRig()
    let first = try await Self.session(rig, store: store)
    rig.stub.on(
      "POST", rig.tokenPath,
      reply: .failure(AuthError(.timedOut, "no answer (test)", answerLost: true)))
    await #expect(throws: AuthError.self) { try await first.freshAccessToken() }

    let record = try #require(try await store.load(first.key))
    let next = SessionActor(
      record: record, provider: rig.provider, store: store, clock: rig.clock,
      policy: Self.policy)
    rig.stub.on("POST", rig.tokenPath, reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
    let error = await #expect(throws: AuthError.self) { try await next.freshAccessToken() }
    #expect(error?.signOutReason == .refreshResponseLost)
  }

  /// A request that never left (nothing listened) lost no answer: a later refusal is the
  /// token's own expiry.
  @Test func invalidGrantAfterARequestThatNeverLeftIsAnExpiredToken() async throws {
    let rig = try Self.oidcRig()
    let store = InMemorySessionStore()
    let session = try await Self.session(rig, store: store)
    rig.stub.on("POST", rig.tokenPath, reply: .failure(URLError(.cannotConnectToHost)))
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(try await store.load(session.key)?.refreshAnswerLost == nil)

    rig.clock.advance(by: .seconds(60))
    rig.stub.on("POST", rig.tokenPath, reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.signOutReason == .refreshTokenExpired)
  }

  /// A refresh that succeeds after a lost answer clears the mark: it was about the token it
  /// replaced.
  @Test func aSuccessfulRefreshClearsTheLostAnswer() async throws {
    let rig = try Self.oidcRig()
    let store = InMemorySessionStore()
    let session = try await Self.session(rig, store: store)
    rig.stub.on("POST", rig.tokenPath, reply: .failure(URLError(.timedOut)))
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    rig.clock.advance(by: .seconds(60))
    rig.stub.on("POST", rig.tokenPath, reply: rig.issue(1))
    #expect(try await session.freshAccessToken() == "at-1")
    #expect(try await store.load(session.key)?.refreshAnswerLost == nil)

    rig.clock.advance(by: .seconds(7200))
    rig.stub.on("POST", rig.tokenPath, reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.signOutReason == .refreshTokenExpired)
  }
}
