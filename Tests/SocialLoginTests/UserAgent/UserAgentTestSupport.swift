import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a test "browser" got back from the loopback server.
struct BrowserPage {
  var status: Int
  var body: String
}

enum UserAgentTestSupport {
  /// A URLSession that does not reuse connections between tests.
  static func fetch(_ url: String, method: String = "GET", form: String? = nil) async throws
    -> BrowserPage
  {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method
    if let form {
      request.httpBody = Data(form.utf8)
      request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    }
    // Generous: a busy two-core machine can keep the agent's handler waiting for the pool.
    request.timeoutInterval = 60
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    return BrowserPage(status: http.statusCode, body: String(decoding: data, as: UTF8.self))
  }

  /// Plays the provider's consent screen for a `ScriptedProvider` URL: returns the redirect
  /// URI with `code` and the request's `state`.
  @Sendable static func approve(_ url: URL) throws -> URL {
    try redirect(from: url, adding: [URLQueryItem(name: "code", value: "code-1")])
  }

  /// The redirect a provider sends for `url` with `items` plus the request's `state`.
  static func redirect(from url: URL, adding items: [URLQueryItem], state: String? = nil) throws
    -> URL
  {
    let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let redirectURI = try #require(query.first { $0.name == "redirect_uri" }?.value)
    let requestState = try #require(query.first { $0.name == "state" }?.value)
    var components = try #require(URLComponents(string: redirectURI))
    components.queryItems = items + [URLQueryItem(name: "state", value: state ?? requestState)]
    return try #require(components.url)
  }

  /// The `state` of an authorization URL.
  static func state(of url: URL) throws -> String {
    let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    return try #require(query.first { $0.name == "state" }?.value)
  }

  /// A port that was free a moment ago.
  static func freePort() throws -> UInt16 {
    let probe = try LoopbackServer()
    defer { probe.close() }
    return probe.port
  }

  /// An authorization URL for a fake provider that redirects to `redirectURI`.
  static func authorizationURL(redirectURI: String, state: String = "state-123") throws -> URL {
    var components = URLComponents(string: "https://provider.invalid/authorize")
    components?.queryItems = [
      URLQueryItem(name: "state", value: state),
      URLQueryItem(name: "redirect_uri", value: redirectURI),
    ]
    return try #require(components?.url)
  }
}

/// Collects the URLs a `BrowserOpener` was asked to open.
final class OpenedURLs: Sendable {
  let stream: AsyncStream<URL>
  private let continuation: AsyncStream<URL>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: URL.self)
  }

  var opener: BrowserOpener {
    { [continuation] url in continuation.yield(url) }
  }

  func next() async throws -> URL {
    var iterator = stream.makeAsyncIterator()
    return try #require(await iterator.next())
  }
}

/// A provider that accepts only the code `good`: everything else fails validation.
actor PickyProvider: LoginProvider {
  nonisolated let id: ProviderID = "scripted"
  nonisolated let capabilities: ProviderCapabilities = []
  let base: ScriptedProvider

  init(clock: ManualClock) { base = ScriptedProvider(clock: clock) }

  func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    try await base.makeAuthorizationRequest(redirectURI: redirectURI)
  }

  func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    guard try callback.value("code") == "good" else {
      throw AuthError(.providerError, "invalid_grant (test)", provider: id)
    }
    return try await base.completeAuthorization(pending, callback: callback)
  }

  func refresh(_ credential: Credential) async throws -> Credential {
    try await base.refresh(credential)
  }

  func fetchIdentity(for credential: Credential) async throws -> Identity {
    try await base.fetchIdentity(for: credential)
  }

  func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    try await base.verify(token)
  }

  func revoke(_ credential: Credential) async throws { try await base.revoke(credential) }
}
