import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Google's answers to a refresh that blame the app, not the user's token.
@Suite("Google: refresh errors that are our configuration", .timeLimit(.minutes(2)))
struct GoogleRefreshErrorTests {
  static let tokenPath = "/token"
  static let refreshToken = "1//google-refresh-token"
  static let secret = "google-client-secret"

  static func provider(_ stub: StubTransport, clock: ManualClock) throws -> GoogleProvider {
    let configuration = try GoogleConfiguration(
      clientID: "web.apps.googleusercontent.com", clientSecret: Secret(secret), environment: [:])
    return GoogleProvider(configuration: configuration, transport: stub, clock: clock)
  }

  @Test(arguments: ["invalid_client", "unauthorized_client"])
  func theClientsCredentialsAreNamedAndTheSessionIsKept(code: String) async throws {
    let stub = StubTransport()
    let clock = ManualClock()
    let provider = try Self.provider(stub, clock: clock)
    stub.on(
      "POST", Self.tokenPath, repeating: true,
      reply: .json(#"{"error":"\#(code)","error_description":"Unauthorized"}"#, status: 401))

    let error = await authError {
      _ = try await provider.refresh(
        Credential(accessToken: "a", refreshToken: Secret(Self.refreshToken)))
    }
    #expect(error?.code == .configuration)
    #expect(error?.provider == .google)
    #expect(error?.oauth?.error == code)
    #expect(error?.message.contains("GoogleConfiguration.clientID") == true)
    #expect(error?.message.contains("GoogleConfiguration.clientSecret") == true)
    #expect(error.map(provider.classifyRefreshFailure) == .transient(retryAfter: nil))
    expectNoSecrets(error, [Self.refreshToken, Self.secret])

    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let session = try await client.register(
      credential: Credential(
        accessToken: "old", refreshToken: Secret(Self.refreshToken),
        expiresAt: clock.wallTime.addingTimeInterval(3600)),
      identity: Identity(provider: .google, subject: "g-1"))
    let forced = await authError { _ = try await session.forceRefresh() }
    #expect(forced?.code == .configuration)
    #expect(session.currentState.isSignedIn)
    #expect(
      try await client.store.load(session.key)?.credential.refreshToken?.revealed
        == Self.refreshToken)
  }

  @Test func invalidGrantStillSignsOutAndOutagesStayTransient() async throws {
    let stub = StubTransport()
    let provider = try Self.provider(stub, clock: ManualClock())
    stub.on(
      "POST", Self.tokenPath,
      reply: .json(#"{"error":"invalid_grant","error_description":"Bad Request"}"#, status: 400))
    stub.on("POST", Self.tokenPath, reply: .status(503, body: "<html>unavailable</html>"))
    let credential = Credential(accessToken: "a", refreshToken: Secret(Self.refreshToken))
    let grant = await authError { _ = try await provider.refresh(credential) }
    #expect(grant?.code != .configuration)
    #expect(
      grant.map(provider.classifyRefreshFailure) == .refreshTokenInvalid(.refreshTokenRevoked))
    let outage = await authError { _ = try await provider.refresh(credential) }
    #expect(outage?.code != .configuration)
    guard case .transient? = outage.map(provider.classifyRefreshFailure) else {
      Issue.record("a 503 must degrade")
      return
    }
  }
}
