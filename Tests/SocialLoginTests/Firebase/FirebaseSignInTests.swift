import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct FirebaseSignInTests {
  @Test func facebookSessionSignsInWithItsAccessTokenAndBecomesAFirebaseSession() async throws {
    let fixture = try FirebaseFixture()
    fixture.stub.on("POST", FirebaseWire.signInPath, reply: .json(FirebaseWire.signInResponse()))
    fixture.stub.on(
      "POST", FirebaseWire.lookupPath,
      reply: .json(FirebaseWire.lookupResponse(providers: ["facebook.com", "oidc.line"])))
    let facebook = try await fixture.facebookSession()

    let signedIn = try await fixture.firebase.signIn(with: facebook)

    let request = try #require(fixture.stub.requests.first)
    #expect(request.method == "POST")
    #expect(request.url.host == "identitytoolkit.googleapis.com")
    #expect(request.url.path == FirebaseWire.signInPath)
    #expect(try fixture.queryKey(0) == "test-api-key")
    #expect(request.headers["Content-Type"] == "application/json")
    let body = try fixture.jsonBody(0)
    #expect(body["postBody"] == "access_token=fb-user-token&providerId=facebook.com")
    #expect(body["requestUri"] == "http://localhost")
    #expect(body["returnSecureToken"] == true)
    #expect(body["returnIdpCredential"] == true)
    #expect(body["idToken"] == nil)
    #expect(body["tenantId"] == nil)
    // The lookup that completes the user's provider list carries the new ID token.
    #expect(try fixture.jsonBody(1)["idToken"]?.stringValue == FirebaseWire.idToken())

    let user = signedIn.user
    #expect(user.localID == "uid-123")
    #expect(user.isNewUser)
    #expect(user.email == "ada@example.com")
    #expect(user.emailVerified == true)
    #expect(user.displayName == "Ada Lovelace")
    #expect(user.photoURL?.absoluteString == "https://graph.facebook.com/fb-1/picture")
    #expect(user.signInProvider == "facebook.com")
    #expect(user.federatedID == "http://facebook.com/fb-1")
    #expect(user.providerData.map(\.providerID) == ["facebook.com", "oidc.line"])
    #expect(user.rawUserInfo == #"{"id":"fb-1"}"#)
    #expect(user.rawUserInfoJSON?["id"] == "fb-1")
    #expect(user.idpCredential?.accessToken == "fb-user-token")
    #expect(user.idpCredential?.expiresIn == 5_183_999)

    #expect(signedIn.session.key == SessionKey(provider: .firebase, subject: "uid-123"))
    #expect(try await signedIn.idToken() == FirebaseWire.idToken())
    let stored = try #require(try await fixture.store.load(signedIn.session.key))
    #expect(stored.credential.refreshToken == "rt-1")
    #expect(stored.credential.expiresAt == fixture.clock.wallTime.addingTimeInterval(3600))
    #expect(FirebaseUser(identity: try #require(stored.identity))?.localID == "uid-123")
    let restored = await fixture.firebase.session(for: "uid-123")
    #expect(restored?.user.providerData.count == 2)
  }

  @Test func rawUserInfoThatDoesNotParseIsKeptRaw() async throws {
    let fixture = try FirebaseFixture()
    fixture.stub.on(
      "POST", FirebaseWire.signInPath,
      reply: .json(FirebaseWire.signInResponse(rawUserInfo: #"{"id": "fb-1", broken"#)))
    fixture.stub.on("POST", FirebaseWire.lookupPath, reply: .status(503))
    let signedIn = try await fixture.firebase.signIn(with: .facebook(accessToken: "fb"))
    #expect(signedIn.user.rawUserInfo == #"{"id": "fb-1", broken"#)
    #expect(signedIn.user.rawUserInfoJSON == nil)
    // The failed lookup only costs detail: the sign-in's own provider entry stays.
    #expect(signedIn.user.providerData.map(\.providerID) == ["facebook.com"])
  }

  @Test(arguments: [
    (
      FirebaseCredential.facebookLimitedLogin(idToken: "fb-jwt", rawNonce: "n0nce"),
      "id_token=fb-jwt&nonce=n0nce&providerId=facebook.com"
    ),
    (
      FirebaseCredential.twitter(token: "tw-token", secret: "tw-secret"),
      "access_token=tw-token&oauth_token_secret=tw-secret&providerId=twitter.com"
    ),
    (
      FirebaseCredential.google(idToken: "g-jwt"),
      "id_token=g-jwt&providerId=google.com"
    ),
    (
      FirebaseCredential.oidc("oidc.line", idToken: "line-jwt", rawNonce: "abc"),
      "id_token=line-jwt&nonce=abc&providerId=oidc.line"
    ),
  ])
  func eachCredentialSendsItsPostBody(credential: FirebaseCredential, postBody: String)
    async throws
  {
    let fixture = try FirebaseFixture()
    fixture.stub.on("POST", FirebaseWire.signInPath, reply: .json(FirebaseWire.signInResponse()))
    fixture.stub.on("POST", FirebaseWire.lookupPath, reply: .json(FirebaseWire.lookupResponse()))
    _ = try await fixture.firebase.signIn(with: credential)
    #expect(try fixture.jsonBody(0)["postBody"]?.stringValue == postBody)
    #expect(!credential.description.contains("jwt") && !credential.description.contains("tw-"))
  }

  @Test func xOAuth2AccessTokenIsRefusedBeforeAnyRequest() async throws {
    let fixture = try FirebaseFixture()
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.signIn(with: .twitterOAuth2(accessToken: "x-oauth2"))
    }
    #expect(error?.code == .unsupported)
    #expect(error?.message.contains("OAuth 1.0a") == true)
    #expect(fixture.stub.requests.isEmpty)
  }

  @Test func xOAuth2SessionIsRefusedAndOAuth1SessionSendsTokenAndSecret() async throws {
    let fixture = try FirebaseFixture()
    let x = ScriptedProvider(id: .twitter, clock: fixture.clock)
    let client = try LoginClient(
      providers: [x, fixture.provider], store: fixture.store, clock: fixture.clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let firebase = try FirebaseAuth(client: client)
    let oauth2 = try await client.register(
      credential: Credential(accessToken: "x2"), identity: Identity(provider: .x, subject: "1"))
    await #expect(throws: AuthError.self) { _ = try await firebase.signIn(with: oauth2) }
    let oauth1 = try await client.register(
      credential: Credential(accessToken: "x1", tokenSecret: "x1-secret"),
      identity: Identity(provider: .x, subject: "2"))
    #expect(
      try await firebase.credential(for: oauth1) == .twitter(token: "x1", secret: "x1-secret"))
  }

  @Test func oidcSessionSignsInAsOidcProviderWithItsIDToken() async throws {
    let fixture = try FirebaseFixture()
    let line = ScriptedProvider(id: .line, clock: fixture.clock)
    let client = try LoginClient(
      providers: [line, fixture.provider], store: fixture.store, clock: fixture.clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let firebase = try FirebaseAuth(client: client)
    let withToken = try await client.register(
      credential: Credential(accessToken: "at", idToken: "line-id-token"),
      identity: Identity(provider: .line, subject: "U1"))
    #expect(
      try await firebase.credential(for: withToken) == .oidc("oidc.line", idToken: "line-id-token"))
    let withoutToken = try await client.register(
      credential: Credential(accessToken: "at"), identity: Identity(provider: .line, subject: "U2"))
    let error = await #expect(throws: AuthError.self) {
      _ = try await firebase.credential(for: withoutToken)
    }
    #expect(error?.code == .unsupported)
  }

  @Test func tenantIsSentWithSignIn() async throws {
    let fixture = try FirebaseFixture(tenantID: "tenant-1")
    fixture.stub.on("POST", FirebaseWire.signInPath, reply: .json(FirebaseWire.signInResponse()))
    fixture.stub.on("POST", FirebaseWire.lookupPath, reply: .json(FirebaseWire.lookupResponse()))
    _ = try await fixture.firebase.signIn(with: .facebook(accessToken: "fb"))
    #expect(try fixture.jsonBody(0)["tenantId"] == "tenant-1")
  }

  @Test func emulatorHostFromTheEnvironmentRoutesEveryRequest() throws {
    let configuration = FirebaseProvider.Configuration(
      apiKey: "k", projectID: "p", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"])
    #expect(configuration.usesEmulator)
    #expect(configuration.emulatorHost == EmulatorHost(host: "127.0.0.1", port: 9099))
    let broken = FirebaseProvider.Configuration(
      apiKey: "k", projectID: "p", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "nonsense"])
    #expect(!broken.usesEmulator)
  }

  @Test func emulatorRequestsUseTheEmulatorURLScheme() async throws {
    let fixture = try FirebaseFixture(emulatorHost: EmulatorHost(host: "127.0.0.1", port: 9099))
    fixture.stub.on(
      "POST", "/identitytoolkit.googleapis.com" + FirebaseWire.signInPath,
      reply: .json(FirebaseWire.signInResponse()))
    fixture.stub.on(
      "POST", "/identitytoolkit.googleapis.com" + FirebaseWire.lookupPath,
      reply: .json(FirebaseWire.lookupResponse()))
    fixture.stub.on(
      "POST", "/securetoken.googleapis.com/v1/token",
      reply: .json(FirebaseWire.refreshResponse(number: 2)))
    let signedIn = try await fixture.firebase.signIn(with: .facebook(accessToken: "fb"))
    _ = try await signedIn.idToken(forcingRefresh: true)
    let urls = fixture.stub.requests.map(\.url.absoluteString)
    #expect(
      urls == [
        "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=test-api-key",
        "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:lookup?key=test-api-key",
        "http://127.0.0.1:9099/securetoken.googleapis.com/v1/token?key=test-api-key",
      ])
  }

  @Test func malformedEmulatorVariableFailsInsteadOfReachingProduction() async throws {
    let stub = StubTransport()
    let provider = FirebaseProvider(
      configuration: .init(
        apiKey: "k", projectID: "p", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "nope"]),
      transport: stub)
    // Refused when the provider is registered (issue 20, item 2), before any request.
    let error = await #expect(throws: AuthError.self) {
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      _ = try await FirebaseAuth(client: client).signIn(with: .facebook(accessToken: "fb"))
    }
    #expect(error?.code == .configuration)
    #expect(error?.message.contains("FIREBASE_AUTH_EMULATOR_HOST") == true)
    #expect(stub.requests.isEmpty)
    // Used without a client, the provider still fails every request the same way.
    let direct = await #expect(throws: AuthError.self) {
      _ = try await provider.verifyIDToken("a.b.c")
    }
    #expect(direct?.code == .configuration)
  }

  @Test func emptyFirebaseOrOIDCSettingsAreRefusedWhenTheProviderIsRegistered() throws {
    for (apiKey, projectID, setting) in [("", "p", "apiKey"), ("k", "", "projectID")] {
      let provider = FirebaseProvider(
        configuration: .init(apiKey: apiKey, projectID: projectID, environment: [:]),
        transport: StubTransport())
      let error = #expect(throws: AuthError.self) {
        _ = try LoginClient(providers: [provider], store: InMemorySessionStore())
      }
      #expect(error?.code == .configuration)
      #expect(error?.message.contains(setting) == true, "\(error?.message ?? "")")
    }
    let oidc = OIDCProvider(
      id: "corp",
      configuration: .init(issuer: URL(string: "https://id.example.com")!, clientID: ""))
    let error = #expect(throws: AuthError.self) {
      _ = try LoginClient(providers: [oidc], store: InMemorySessionStore())
    }
    #expect(error?.message.contains("clientID") == true)
  }

  @Test func clientWithoutFirebaseProviderIsAConfigurationError() throws {
    let client = try LoginClient(providers: [], store: InMemorySessionStore())
    #expect(throws: AuthError.self) { _ = try FirebaseAuth(client: client) }
  }

  @Test func endpointsAreSettableByName() throws {
    var configuration = FirebaseProvider.Configuration(
      apiKey: "k", projectID: "p", environment: [:])
    let url = try #require(URL(string: "http://127.0.0.1:1/certs"))
    try configuration.setEndpoint("certs", to: url)
    #expect(configuration.certificatesURL == url)
    #expect(throws: AuthError.self) { try configuration.setEndpoint("jwks", to: url) }
    #expect(
      FirebaseProvider.Configuration.endpointNames == ["identitytoolkit", "securetoken", "certs"])
  }
}
