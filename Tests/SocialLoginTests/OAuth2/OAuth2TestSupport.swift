import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Shared fixtures for the OAuth2 engine tests: a client on a stub transport and a manual clock.
struct OAuth2Fixture {
  static let authorizationEndpoint = URL(string: "https://auth.test/authorize")
  static let tokenEndpoint = URL(string: "https://auth.test/token")
  static let revocationEndpoint = URL(string: "https://auth.test/revoke")
  static let deviceEndpoint = URL(string: "https://auth.test/device")
  static let redirectURI = "http://127.0.0.1:8765/callback?from=app"

  let stub = StubTransport()
  let clock = ManualClock()
  let client: OAuth2Client

  init(
    clientID: String = "client-1",
    clientSecret: Secret? = "client-SECRET-value",
    authentication: OAuth2Configuration.ClientAuthentication = .clientSecretBasic,
    scopes: [String] = ["openid", "profile"],
    configure: (inout OAuth2Configuration) -> Void = { _ in }
  ) throws {
    var configuration = OAuth2Configuration(
      clientID: clientID,
      clientSecret: clientSecret,
      clientAuthentication: authentication,
      authorizationEndpoint: try #require(Self.authorizationEndpoint),
      tokenEndpoint: try #require(Self.tokenEndpoint),
      revocationEndpoint: Self.revocationEndpoint,
      deviceAuthorizationEndpoint: Self.deviceEndpoint,
      scopes: scopes)
    configure(&configuration)
    client = OAuth2Client(
      provider: "test-idp", configuration: configuration, transport: stub, clock: clock)
  }

  /// A fresh pending login for `redirectURI`.
  func pending() throws -> PendingLogin {
    try client.makeAuthorizationRequest(redirectURI: Self.redirectURI).pending
  }

  /// The form fields of a recorded request body, in order.
  static func fields(of request: TransportRequest?) -> [(String, String)] {
    FormEncoding.decode(String(decoding: request?.body ?? Data(), as: UTF8.self))
  }

  /// The form fields of a recorded request body as a dictionary (first value wins).
  static func form(_ request: TransportRequest?) -> [String: String] {
    Dictionary(fields(of: request), uniquingKeysWith: { first, _ in first })
  }

  /// The query of `url` decoded as form fields, in order.
  static func query(of url: URL) -> [(String, String)] {
    FormEncoding.decode(
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
  }
}

/// Runs `body` and returns the ``AuthError`` it throws, recording an issue otherwise.
func authError(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> Void
) async -> AuthError? {
  do {
    try await body()
    Issue.record("Expected an AuthError, but nothing was thrown.", sourceLocation: sourceLocation)
  } catch let error as AuthError {
    return error
  } catch {
    Issue.record("Expected an AuthError, got \(error).", sourceLocation: sourceLocation)
  }
  return nil
}

/// Records an issue when `error`'s description, debug description or message contains any
/// of `secrets`.
func expectNoSecrets(
  _ error: AuthError?, _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let error else { return }
  let texts = [error.description, error.debugDescription, error.message, "\(error)"]
  for secret in secrets {
    for text in texts where text.contains(secret) {
      Issue.record("Error text leaks '\(secret)': \(text)", sourceLocation: sourceLocation)
    }
  }
}
