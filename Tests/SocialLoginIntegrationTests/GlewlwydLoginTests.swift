import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Logins against a real, independent OpenID provider (Glewlwyd) on 127.0.0.1.
extension GlewlwydSuites {
  @Suite(
    .enabled(
      if: GlewlwydPeer.shouldRun,
      "glewlwyd is not installed: apt-get install glewlwyd (CI=true fails instead)"
    ))
  struct GlewlwydLoginTests {
    struct Harness {
      let peer: GlewlwydPeer
      let transport = RecordingTransport()
      let clock = ManualClock(wallTime: Date())
      let provider: OIDCProvider
      let client: LoginClient

      init(issuer: URL? = nil, confidential: Bool = false) async throws {
        peer = try await GlewlwydPeer.shared.value
        let clientID = confidential ? GlewlwydPeer.confidentialClient : GlewlwydPeer.publicClient
        provider = OIDCProvider(
          id: "glewlwyd",
          configuration: .init(
            issuer: issuer ?? peer.rsIssuer, clientID: clientID,
            clientSecret: confidential ? Secret(GlewlwydPeer.confidentialSecret) : nil,
            scopes: ["openid"], refreshTokenRejections: [.emptyBadRequest]),
          transport: transport, clock: clock)
        client = try LoginClient(
          providers: [provider], store: InMemorySessionStore(), clock: clock,
          policy: RefreshPolicy(proactiveMargin: nil))
      }

      var clientID: String { provider.configuration.clientID }

      /// The same provider on the real clock, for checking the expiry of tokens Glewlwyd
      /// stamps with its own time (the harness's manual clock may have been advanced).
      func checker() -> OIDCProvider {
        OIDCProvider(id: "glewlwyd", configuration: provider.configuration, transport: transport)
      }

      func agent() -> HeadlessUserAgent {
        let browser = GlewlwydBrowser(peer: peer, clientID: clientID)
        return HeadlessUserAgent(redirectURI: peer.redirectURI) { try await browser.authorize($0) }
      }
    }

    @Test func discoveryReadsTheProvidersMetadata() async throws {
      let harness = try await Harness()
      let metadata = try await harness.provider.metadata()
      #expect(metadata.issuer == harness.peer.rsIssuer.absoluteString)
      #expect(metadata.jwksURI.path.hasSuffix("/jwks"))
      #expect(metadata.revocationEndpoint != nil)
      _ = try await harness.provider.metadata()
      #expect(harness.transport.count(pathSuffix: "openid-configuration") == 1, "cached")
    }

    @Test func publicClientLogsInWithPKCEAndRS256IDToken() async throws {
      let harness = try await Harness()
      let session = try await harness.client.login("glewlwyd", using: harness.agent())
      let identity = try #require(await session.identity)
      // Glewlwyd's subjects are opaque ("public" subject type): the profile says who it is.
      #expect(!identity.subject.isEmpty)
      #expect(identity.email == "alice@example.test")
      #expect(identity.name == "Alice Example")
      #expect(session.currentState == .signedIn)
      let credential = try #require(await session.credential)
      #expect(credential.refreshToken != nil)
      #expect(credential.idToken != nil)
    }

    @Test func confidentialClientLogsInWithBasicAuthentication() async throws {
      let harness = try await Harness(confidential: true)
      let session = try await harness.client.login("glewlwyd", using: harness.agent())
      #expect(await session.identity?.email == GlewlwydPeer.email)
    }

    @Test func es256IssuerLogsInWithNonce() async throws {
      let peer = try await GlewlwydPeer.shared.value
      let harness = try await Harness(issuer: peer.esIssuer)
      let session = try await harness.client.login("glewlwyd", using: harness.agent())
      let idToken = try #require(await session.credential?.idToken?.revealed)
      let header = try #require(idToken.split(separator: ".").first)
      let decoded = String(decoding: try base64URLDecode(String(header)), as: UTF8.self)
      #expect(decoded.contains("ES256"))
      #expect(await session.identity?.email == GlewlwydPeer.email)
    }

    @Test func realLoopbackRedirectCompletesTheLogin() async throws {
      let harness = try await Harness()
      let browser = GlewlwydBrowser(peer: harness.peer, clientID: harness.clientID)
      let agent = HeadlessUserAgent.loopback(port: harness.peer.redirectPort) {
        try await browser.authorize($0)
      }
      let session = try await harness.client.login("glewlwyd", using: agent)
      #expect(await session.identity?.email == GlewlwydPeer.email)
    }

    @Test func hundredCallersAfterExpiryCauseOneRotatingRefresh() async throws {
      let harness = try await Harness()
      let session = try await harness.client.login("glewlwyd", using: harness.agent())
      let before = try #require(await session.credential)
      harness.clock.advance(by: .seconds(7200))
      let tokens = try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<100 { group.addTask { try await session.freshAccessToken() } }
        var all: Set<String> = []
        for try await token in group { all.insert(token) }
        return all
      }
      #expect(harness.transport.count(grant: "refresh_token") == 1)
      #expect(tokens.count == 1)
      #expect(tokens.first != before.accessToken.revealed)
      let after = try #require(await session.credential)
      #expect(after.refreshToken != nil)
      #expect(after.refreshToken != before.refreshToken, "Glewlwyd rotates refresh tokens")
      #expect(session.currentState == .signedIn)
      // The new access token works at userinfo.
      let identity = try await harness.checker().verify(.accessToken(after.accessToken)).identity
      #expect(identity.subject == (await session.identity?.subject))
    }

    @Test func aSpentRefreshTokenSignsOutThroughTheProvidersEmptyBadRequestRule() async throws {
      let harness = try await Harness()
      let session = try await harness.client.login("glewlwyd", using: harness.agent())
      let credential = try #require(await session.credential)
      // Spend the refresh token behind the session's back (one-use refresh tokens).
      _ = try await harness.provider.refresh(credential)
      harness.clock.advance(by: .seconds(7200))
      let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
      let cause = try #require(error?.underlying as? AuthError)
      // Glewlwyd's answer is not an OAuth error: an empty 400, which its configuration names.
      #expect(cause.httpStatus == 400)
      #expect(cause.responseBodySize == 0)
      #expect(cause.oauth == nil)
      #expect(session.currentState == .signedOut(.refreshTokenExpired))
    }

    @Test func introspectionProvesTheAccessTokenWasIssuedToThisClient() async throws {
      let harness = try await Harness(confidential: true)
      #expect(try await harness.provider.metadata().introspectionEndpoint != nil)
      let session = try await harness.client.login("glewlwyd", using: harness.agent())
      let credential = try #require(await session.credential)
      let verified = try await harness.provider.verify(.accessToken(credential.accessToken))
      #expect(verified.audience == .proven(audience: GlewlwydPeer.confidentialClient))
      #expect(verified.identity.subject == (await session.identity?.subject))
      #expect(harness.transport.count(pathSuffix: "/introspect") == 1)
    }

    @Test func anotherClientsAccessTokenIsRefusedByIntrospection() async throws {
      // A token the public client obtained, presented to the confidential client's backend:
      // token substitution, which userinfo alone would have accepted.
      let other = try await Harness()
      let session = try await other.client.login("glewlwyd", using: other.agent())
      let foreign = try #require(await session.credential?.accessToken)
      let backend = try await Harness(confidential: true)
      let error = await #expect(throws: AuthError.self) {
        try await backend.provider.verify(.accessToken(foreign))
      }
      // Glewlwyd answers `active: false` for a token of another client.
      #expect(error?.code == .invalidToken)
    }

    @Test func aPublicClientProvesItsJWTAccessTokensAudienceWithTheJWKS() async throws {
      // A public client has no secret to introspect with: Glewlwyd's access tokens are
      // RFC 9068 JWTs (typ at+jwt) whose aud names the client.
      let harness = try await Harness()
      let session = try await harness.client.login("glewlwyd", using: harness.agent())
      let token = try #require(await session.credential?.accessToken)
      let verified = try await harness.checker().verify(.accessToken(token))
      #expect(verified.audience == .proven(audience: GlewlwydPeer.publicClient))
      #expect(verified.identity.subject == (await session.identity?.subject))
      #expect(harness.transport.count(pathSuffix: "/introspect") == 0)

      let confidential = try await Harness(confidential: true)
      let other = try await confidential.client.login("glewlwyd", using: confidential.agent())
      let foreign = try #require(await other.credential?.accessToken)
      let error = await #expect(throws: AuthError.self) {
        try await harness.checker().verify(.accessToken(foreign))
      }
      #expect(error?.code == .invalidToken)
    }

    @Test func signOutRevokesTheTokensAtTheProvider() async throws {
      let harness = try await Harness(confidential: true)
      let session = try await harness.client.login("glewlwyd", using: harness.agent())
      let credential = try #require(await session.credential)
      let outcome = try await session.signOut(revoke: true)
      guard case .revoked = outcome else {
        Issue.record("expected .revoked, got \(outcome)")
        return
      }
      let error = await #expect(throws: AuthError.self) {
        try await harness.provider.verify(.accessToken(credential.accessToken))
      }
      #expect(error?.code == .invalidToken)
      #expect(harness.client.sessionCount == 0)
    }

    @Test func forgedStateIsRejectedAndDoesNotConsumeThePendingLogin() async throws {
      let harness = try await Harness()
      let handle = try await harness.client.beginLogin(
        "glewlwyd", redirectURI: harness.peer.redirectURI)
      let browser = GlewlwydBrowser(peer: harness.peer, clientID: harness.clientID)
      let redirect = try await browser.authorize(handle.url)
      let genuine = try AuthorizationCallback(url: redirect)
      var forged = genuine
      forged.parameters = genuine.parameters.map {
        $0.name == "state" ? URLQueryItem(name: "state", value: "forged-\(UUID())") : $0
      }
      let error = await #expect(throws: AuthError.self) {
        try await harness.client.completeLogin(callback: forged, expectedState: handle.state)
      }
      #expect(error?.code == .stateMismatch)
      let session = try await harness.client.completeLogin(
        callback: genuine, expectedState: handle.state)
      #expect(await session.identity?.email == GlewlwydPeer.email)
    }

    @Test func wrongPKCEVerifierIsRejectedByTheProvider() async throws {
      let harness = try await Harness()
      let request = try await harness.provider.makeAuthorizationRequest(
        redirectURI: harness.peer.redirectURI)
      let browser = GlewlwydBrowser(peer: harness.peer, clientID: harness.clientID)
      let callback = try AuthorizationCallback(url: try await browser.authorize(request.url))
      var tampered = request.pending
      tampered.codeVerifier = Secret(PKCE.makeVerifier())
      let error = await #expect(throws: AuthError.self) {
        try await harness.provider.completeAuthorization(tampered, callback: callback)
      }
      #expect(error?.code == .providerError)
      #expect(error?.httpStatus == 403)
    }
  }
}

/// Decodes base64url for inspecting token headers in tests.
func base64URLDecode(_ text: String) throws -> Data {
  var base64 = text.replacingOccurrences(of: "-", with: "+")
    .replacingOccurrences(of: "_", with: "/")
  while base64.count % 4 != 0 { base64 += "=" }
  guard let data = Data(base64Encoded: base64) else { throw PeerError("bad base64url") }
  return data
}
