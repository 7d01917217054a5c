import Foundation
import SocialLogin

/// Login, refresh and verify through a ``DescribedProvider`` beside the hand-written
/// ``OIDCProvider`` on the same canned answers (the same RS256 ID token, JWKS and token
/// answers), so the figure is the cost of running a description instead of code: project
/// issue 35 asks for no more than 5 % over the hand-written provider.
enum DescribedBench {
  static let issuer = "https://issuer.example"
  static let clientID = "client-1"
  static let nonce = "n-0S6_WzA2Mj"
  static let state = "bench-state"
  static let redirectURI = "https://app.example/callback"

  static func run() async -> [Figure] {
    let transport = CannedTransport()
    let clock = SystemAuthClock()
    let hand: any LoginProvider
    let described: any LoginProvider
    do {
      hand = OIDCProvider(
        id: "bench-oidc",
        configuration: .init(
          issuer: url(issuer), clientID: clientID, clientSecret: "secret-1",
          clientAuthentication: .clientSecretPost, scopes: ["openid"],
          allowedAlgorithms: [.rs256],
          metadata: OIDCProviderMetadata(
            issuer: issuer, authorizationEndpoint: url(issuer + "/authorize"),
            tokenEndpoint: url(issuer + "/token"), jwksURI: url(issuer + "/jwks"))),
        transport: transport, clock: clock)
      described = DescribedProvider(
        configuration: try DescribedProviderConfiguration(
          description, clientID: clientID, clientSecret: "secret-1", emulatorHost: nil,
          environment: [:]),
        transport: transport, clock: clock)
    } catch {
      return [Figure("described_vs_oidc", [("error", "setup")])]
    }
    // Warm both (JWKS fetched and cached, code paths loaded), then alternate rounds so that
    // drift on a shared machine falls on both alike.
    for provider in [hand, described] {
      guard (try? await once(provider)) != nil else {
        return [Figure("described_vs_oidc", [("error", "\(provider.id) failed")])]
      }
    }
    var handSamples: [Double] = []
    var describedSamples: [Double] = []
    let iterations = 200
    for _ in 0..<15 {
      handSamples.append(await nanosecondsPerRound(hand, iterations: iterations))
      describedSamples.append(await nanosecondsPerRound(described, iterations: iterations))
    }
    let handMedian = LoginBench.median(handSamples)
    let describedMedian = LoginBench.median(describedSamples)
    return [
      Figure(
        "described_vs_oidc",
        [
          ("oidc_us", String(format: "%.1f", handMedian / 1000)),
          ("described_us", String(format: "%.1f", describedMedian / 1000)),
          ("overhead_percent", String(format: "%.1f", (describedMedian / handMedian - 1) * 100)),
          ("operation", "login+refresh+verify"),
          ("rounds", "15x\(iterations)"),
        ])
    ]
  }

  private static func url(_ text: String) -> URL {
    URL(string: text) ?? URL(fileURLWithPath: "/")
  }

  /// A description of the same provider the ``OIDCProvider`` reads from its metadata.
  static let description = ProviderDescription(
    id: "bench-described", displayName: "Bench",
    endpoints: [
      ProviderEndpoint(name: "authorize", production: issuer + "/authorize"),
      ProviderEndpoint(name: "token", production: issuer + "/token", method: .post),
      ProviderEndpoint(name: "keys", production: issuer + "/jwks"),
    ],
    authorization: AuthorizationRules(defaultScopes: ["openid"]),
    idToken: IDTokenRules(issuers: [issuer]),
    identity: IdentityRules())

  private static func nanosecondsPerRound(_ provider: any LoginProvider, iterations: Int) async
    -> Double
  {
    let start = ContinuousClock.now
    for _ in 0..<iterations { _ = try? await once(provider) }
    let elapsed = ContinuousClock.now - start
    let nanoseconds =
      Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    return nanoseconds / Double(iterations)
  }

  /// One login (code exchange and ID-token verification), one refresh (with a new ID token
  /// checked against the old), and one verification of an app's ID token.
  private static func once(_ provider: any LoginProvider) async throws {
    let now = Date()
    let pending = PendingLogin(
      provider: provider.id, state: Secret(state), redirectURI: redirectURI,
      codeVerifier: "verifier-verifier-verifier-verifier-verifier-0", nonce: Secret(nonce),
      createdAt: now, expiresAt: now.addingTimeInterval(600))
    let callback = AuthorizationCallback(parameters: [
      URLQueryItem(name: "code", value: "code-1"), URLQueryItem(name: "state", value: state),
    ])
    let credential = try await provider.completeAuthorization(pending, callback: callback)
    blackHole(try await provider.spendRefreshToken(credential).get())
    blackHole(
      try await provider.verify(
        .idToken(Secret(JOSEBenchFixtures.rs256), nonce: Secret(nonce))))
  }
}

/// Answers the token endpoint and the JWKS from memory: no network, no recording.
private struct CannedTransport: HTTPTransport {
  static let token = Data(
    #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1","id_token":"\#(JOSEBenchFixtures.rs256)"}"#
      .utf8)
  static let jwks = Data(JOSEBenchFixtures.jwks.utf8)

  func send(_ request: TransportRequest) async throws -> TransportResponse {
    let body = request.url.path == "/jwks" ? Self.jwks : Self.token
    return TransportResponse(
      status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "max-age=3600"],
      body: body)
  }
}
