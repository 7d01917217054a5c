import Foundation
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// A ``DescribedProvider`` for a description on a stub transport and a manual clock. ID
/// tokens are HS256 with a key the stub's JWKS serves, so tests can sign their own.
struct DescribedFixture {
  static let clientID = "client-1"
  static let keyID = "k1"
  static let redirectURI = "https://app.example/callback"

  let stub = StubTransport()
  let clock = ManualClock()
  let provider: DescribedProvider
  let description: ProviderDescription

  init(
    _ description: ProviderDescription, secret: Secret? = "secret-1",
    parameters: [String: String] = [:], audiences: [String] = [], appID: String? = nil,
    configure: (inout DescribedProviderConfiguration) -> Void = { _ in }
  ) throws {
    var description = description
    if description.idToken != nil { description.idToken?.algorithms = ["HS256"] }
    self.description = description
    var configuration = try DescribedProviderConfiguration(
      description, clientID: Self.clientID, clientSecret: secret, parameters: parameters,
      emulatorHost: nil, environment: [:])
    configuration.audiences = audiences
    configuration.appID = appID
    configure(&configuration)
    provider = DescribedProvider(configuration: configuration, transport: stub, clock: clock)
    if let name = description.idToken?.keysEndpoint, let url = configuration.url(name) {
      let key = Base64URL.encode(TestTokens.secret)
      stub.on(
        "GET", url.path, repeating: true,
        reply: .json(
          #"{"keys":[{"kty":"oct","kid":"\#(Self.keyID)","alg":"HS256","k":"\#(key)"}]}"#))
    }
  }

  /// The URL path of the description's endpoint `name`.
  func path(_ name: String) -> String {
    provider.configuration.url(name)?.path ?? "/missing-\(name)"
  }

  /// An HS256 ID token: defaults at the clock's time for this client, overridden by `claims`
  /// (`nil` removes a claim).
  static func idToken(issuer: String, _ claims: [String: JSONValue?] = [:]) -> String {
    var members: [String: JSONValue] = [
      "iss": .string(issuer), "sub": "user-1", "aud": .string(clientID),
      "iat": 1_700_000_000, "exp": 1_700_003_600,
    ]
    for (key, value) in claims { members[key] = value }
    return TestTokens.hs256(
      .object(members), header: ["alg": "HS256", "typ": "JWT", "kid": .string(keyID)])
  }

  /// Starts a login, queues the token answer `answer(nonce)` and completes the login.
  func login(_ answer: (String?) -> String, status: Int = 200) async throws -> Credential {
    let request = try await provider.makeAuthorizationRequest(redirectURI: Self.redirectURI)
    stub.on(
      "POST", path("token"), reply: .json(answer(request.pending.nonce?.revealed), status: status))
    let callback = AuthorizationCallback(parameters: [
      URLQueryItem(name: "code", value: "code-1"),
      URLQueryItem(name: "state", value: request.pending.state.revealed),
    ])
    return try await provider.completeAuthorization(request.pending, callback: callback)
  }

  /// The form fields of the last request to `path`.
  func lastForm(_ path: String) -> [String: String] {
    guard let body = stub.requests.last(where: { $0.url.path == path })?.body else { return [:] }
    var fields: [String: String] = [:]
    for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1).map {
        String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
      }
      fields[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    return fields
  }
}

/// The error `body` throws, as an ``AuthError``.
func describedError(_ body: () async throws -> Void) async -> AuthError? {
  do {
    try await body()
    return nil
  } catch {
    return error as? AuthError
  }
}
