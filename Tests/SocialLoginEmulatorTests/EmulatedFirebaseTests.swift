import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// Firebase Authentication through the emulator, over real HTTP, with the real provider
/// actors: Facebook login → Firebase session → refresh → revocation, linking, admin calls.
@Suite("Emulator: Firebase Authentication", .timeLimit(.minutes(3)))
struct EmulatedFirebaseTests {
  /// A client with the emulator's Facebook, LINE and Firebase, and its Firebase facade.
  struct Setup {
    let client: LoginClient
    let firebase: FirebaseAuth
    let agent: HeadlessUserAgent

    init(_ emulator: ProviderEmulator) throws {
      let host = emulator.host
      let facebook = FacebookProvider(
        configuration: try .init(
          appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
          emulatorHost: host, environment: [:]))
      let line = LINEProvider(
        configuration: try .init(
          channelID: EmulatorApps.lineChannelID,
          channelSecret: Secret(EmulatorApps.lineChannelSecret), emulatorHost: host,
          environment: [:]))
      client = try LoginClient(
        providers: [
          facebook, line,
          .firebase(
            apiKey: EmulatorApps.firebaseAPIKey, projectID: EmulatorApps.firebaseProjectID,
            emulatorHost: host, acceptsUnsignedEmulatorTokens: true),
        ],
        store: InMemorySessionStore(), policy: RefreshPolicy(proactiveMargin: nil))
      firebase = try FirebaseAuth(client: client)
      agent = HeadlessUserAgent(redirectURI: "http://127.0.0.1:1/callback") { url in
        try await Browser.follow(url)
      }
    }
  }

  @Test func facebookLoginBecomesAFirebaseSessionThatRefreshesAndIsRevoked() async throws {
    try await ProviderEmulator.run { emulator in
      let setup = try Setup(emulator)
      let facebook = try await setup.client.login(.facebook, using: setup.agent)
      let signedIn = try await setup.firebase.signIn(with: facebook)
      let user = signedIn.user
      #expect(user.isNewUser)
      #expect(!user.localID.isEmpty)
      #expect(user.email == EmulatedUser.alice.email)
      #expect(user.displayName == EmulatedUser.alice.name)
      #expect(user.providerData.map(\.providerID) == ["facebook.com"])
      #expect(user.providerData.first?.rawID == EmulatedUser.alice.subject(at: .facebook))
      #expect(
        user.rawUserInfoJSON?["id"]?.stringValue == EmulatedUser.alice.subject(at: .facebook))
      #expect(user.idpCredential?.accessToken != nil)

      // The unsigned emulator ID token verifies in emulator mode, with production's claims.
      let token = try await setup.firebase.verifyIDToken(try await signedIn.idToken())
      #expect(token.isUnsigned)
      #expect(token.userID == user.localID)
      #expect(token.signInProvider == "facebook.com")
      #expect(token.identities["facebook.com"] == [EmulatedUser.alice.subject(at: .facebook)])

      // A refresh goes through Secure Token.
      _ = try await signedIn.idToken(forcingRefresh: true)
      #expect(emulator.requests(to: .firebase, endpoint: "securetoken").map(\.status) == [200])

      // The same Facebook user signs in to the same Firebase user.
      let again = try await setup.firebase.signIn(with: facebook)
      #expect(!again.user.isNewUser)
      #expect(again.user.localID == user.localID)

      // Revoked refresh tokens end the session with Firebase's answer.
      let revoke = try await Browser.json(
        emulator.baseURL.appendingPathComponent("_emulator/tokens/revoke"),
        ["provider": "firebase"])
      #expect(revoke.status == 200)
      let error = await #expect(throws: AuthError.self) {
        _ = try await again.idToken(forcingRefresh: true)
      }
      #expect(error?.signOutReason == .refreshTokenExpired)
      #expect(again.session.currentState == .signedOut(.refreshTokenExpired))
    }
  }

  @Test func lineIDTokenLinksAsOidcLineAndUnlinks() async throws {
    try await ProviderEmulator.run { emulator in
      let setup = try Setup(emulator)
      let facebook = try await setup.client.login(.facebook, using: setup.agent)
      let signedIn = try await setup.firebase.signIn(with: facebook)
      let line = try await setup.client.login(.line, using: setup.agent)
      let linked = try await setup.firebase.link(signedIn, with: line)
      #expect(linked.user.localID == signedIn.user.localID)
      #expect(Set(linked.user.providerData.map(\.providerID)) == ["facebook.com", "oidc.line"])
      let token = try await setup.firebase.verifyIDToken(try await linked.idToken())
      #expect(token.identities["oidc.line"] == [EmulatedUser.alice.subject(at: .line)])

      let unlinked = try await setup.firebase.unlink(.facebook, from: linked)
      #expect(unlinked.user.providerData.map(\.providerID) == ["oidc.line"])
      let current = try await setup.firebase.currentUser(of: unlinked)
      #expect(current.providerData.map(\.providerID) == ["oidc.line"])
    }
  }

  @Test func linkingAnotherUsersCredentialIsCredentialAlreadyInUse() async throws {
    try await ProviderEmulator.run { emulator in
      let setup = try Setup(emulator)
      let alice = try await setup.firebase.signIn(
        with: try await setup.client.login(.facebook, using: setup.agent))
      #expect(emulator.setCurrentUser("bob"))
      let bobFacebook = try await setup.client.login(.facebook, using: setup.agent)
      _ = try await setup.firebase.signIn(with: bobFacebook)
      let error = await #expect(throws: AuthError.self) {
        _ = try await setup.firebase.link(alice, with: bobFacebook)
      }
      // Reported with HTTP 200 (returnIdpCredential), carrying Bob's Facebook credential.
      #expect(error?.code == .credentialAlreadyInUse)
      #expect(error?.httpStatus == 200)
      #expect(error?.firebaseError?.conflict?.credential?.accessToken != nil)
    }
  }

  @Test func disabledUsersAreSignedOutAndAdminLookupFindsThem() async throws {
    try await ProviderEmulator.run { emulator in
      let setup = try Setup(emulator)
      let signedIn = try await setup.firebase.signIn(
        with: try await setup.client.login(.facebook, using: setup.agent))
      let project = EmulatorApps.firebaseProjectID
      let base = emulator.baseURL.appendingPathComponent(
        "identitytoolkit.googleapis.com/v1/projects/\(project)")
      let localID = JSONValue.string(signedIn.user.localID)

      let unauthorized = try await Browser.json(
        base.appendingPathComponent("accounts:lookup"), ["localId": [localID]])
      #expect(unauthorized.status == 401)
      let lookup = try await Browser.json(
        base.appendingPathComponent("accounts:lookup"), ["localId": [localID]], bearer: "owner")
      #expect(lookup.status == 200)
      #expect(lookup.json?["users"]?.arrayValue?.first?["localId"] == localID)

      let disable = try await Browser.json(
        base.appendingPathComponent("accounts:update"),
        ["localId": localID, "disableUser": true], bearer: "owner")
      #expect(disable.status == 200)
      let error = await #expect(throws: AuthError.self) {
        _ = try await signedIn.idToken(forcingRefresh: true)
      }
      #expect(error?.signOutReason == .accountDisabled)
    }
  }

  @Test func errorsHaveFirebaseShapes() async throws {
    try await ProviderEmulator.run { emulator in
      let setup = try Setup(emulator)
      let error = await #expect(throws: AuthError.self) {
        _ = try await setup.firebase.signIn(with: .facebook(accessToken: "not-issued-here"))
      }
      #expect(error?.code == .invalidIdPResponse)
      #expect(error?.firebaseError?.detail?.isEmpty == false)

      let signIn = emulator.baseURL.appendingPathComponent(
        "identitytoolkit.googleapis.com/v1/accounts:signInWithIdp")
      let keyless = try await Browser.json(signIn, ["requestUri": "http://localhost"])
      #expect(keyless.status == 403)
      #expect(keyless.json?["error"]?["message"] == "The request is missing a valid API key.")
      let token = emulator.baseURL.appendingPathComponent("securetoken.googleapis.com/v1/token")
      var components = try #require(URLComponents(url: token, resolvingAgainstBaseURL: false))
      components.queryItems = [URLQueryItem(name: "key", value: "any")]
      let unknown = try await Browser.json(
        try #require(components.url), ["grant_type": "refresh_token", "refresh_token": "nope"])
      #expect(unknown.status == 400)
      #expect(unknown.json?["error"]?["message"] == "INVALID_REFRESH_TOKEN")
      #expect(unknown.json?["error"]?["status"] == "INVALID_ARGUMENT")

      let status = try await Browser.get(emulator.baseURL)
      let names = status.json?["providers"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
      #expect(names?.contains("firebase") == true)
    }
  }
}

/// Plain HTTP through the SDK's transport (which never follows redirects).
enum Browser {
  struct Answer {
    var status: Int
    var json: JSONValue?
  }

  static let transport = URLSessionTransport()

  /// GETs the authorization URL and returns where it redirects.
  static func follow(_ url: URL) async throws -> URL {
    let response = try await transport.send(TransportRequest(url: url))
    guard (300..<400).contains(response.status), let location = response.headers["Location"],
      let target = URL(string: location)
    else {
      throw AuthError(.invalidResponse, "The emulator did not redirect (\(response.status)).")
    }
    return target
  }

  static func get(_ url: URL) async throws -> Answer {
    let response = try await transport.send(TransportRequest(url: url))
    return Answer(status: response.status, json: try? JSONValue(parsing: Array(response.body)))
  }

  static func json(_ url: URL, _ body: JSONValue, bearer: String? = nil) async throws -> Answer {
    var headers: HTTPHeaderFields = [:]
    if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
    let request = try TransportRequest.json(url: url, body: body, headers: headers)
    let response = try await transport.send(request)
    return Answer(status: response.status, json: try? JSONValue(parsing: Array(response.body)))
  }
}
