import Foundation
import SocialLoginCrypto

extension FacebookProvider {
  /// `hex(HMAC-SHA256(key: app secret, message: token))`: the `appsecret_proof` Facebook
  /// requires with every server-side call that carries a token, when the app enables
  /// "Require App Secret" (and accepts always), so a leaked token alone cannot call Graph.
  ///
  /// ```swift
  /// let proof = FacebookProvider.appSecretProof(for: token, appSecret: secret)
  /// ```
  public static func appSecretProof(for token: Secret, appSecret: Secret) -> String {
    let mac = HMAC<SHA256>.authenticationCode(
      for: Array(token.revealed.utf8), using: Array(appSecret.revealed.utf8))
    return mac.map { byte in
      let text = String(byte, radix: 16)
      return byte < 16 ? "0" + text : text
    }.joined()
  }

  /// The app access token `{app-id}|{app-secret}`, which `debug_token` takes.
  func appAccessToken(for operation: String) throws(AuthError) -> Secret {
    let secret = try configuration.requiredAppSecret(for: operation)
    return Secret("\(configuration.appID)|\(secret.revealed)")
  }

  /// Sends a Graph request to `url` with `query`, plus `access_token` and its
  /// `appsecret_proof` when `token` is given, and returns the JSON object of a 2xx answer.
  ///
  /// With `proofOptional` (the profile of a device login, which has no app secret) the
  /// request goes without `appsecret_proof` when no app secret is configured; otherwise a
  /// missing app secret fails before anything is sent.
  ///
  /// - Throws: `FacebookGraphError` classes as ``AuthError``, transport errors with the
  ///   provider set, or `CancellationError`. Messages never contain the token or secret.
  func graph(
    _ url: URL, method: String = "GET", query: [(String, String)], token: Secret?,
    operation: String, proofOptional: Bool = false
  ) async throws -> [String: JSONValue] {
    var fields = query
    let appSecret: Secret? =
      proofOptional && (configuration.appSecret?.isEmpty ?? true)
      ? nil : try configuration.requiredAppSecret(for: operation)
    if let token {
      fields.append(("access_token", token.revealed))
      if let appSecret {
        fields.append(("appsecret_proof", Self.appSecretProof(for: token, appSecret: appSecret)))
      }
    }
    let secrets =
      fields.filter { $0.0 != "fields" }.map(\.1) + (appSecret.map { [$0.revealed] } ?? [])
    do {
      let request = try Self.request(method, url, fields, timeout: configuration.requestTimeout)
      let response = try await send(request, operation: operation)
      let now = clock.wallTime
      guard response.isSuccess, let object = response.jsonObject, object["error"] == nil else {
        throw FacebookGraphError.failure(response, operation: operation, now: now)
      }
      return object
    } catch let error as AuthError {
      throw error.masking(secrets)
    }
  }

  /// Sends `request`, giving transport errors the provider and wrapping foreign errors.
  func send(_ request: TransportRequest, operation: String) async throws -> TransportResponse {
    try await transport.send(request, operation: operation, provider: .facebook)
  }

  private static func request(
    _ method: String, _ url: URL, _ fields: [(String, String)], timeout: Duration
  ) throws(AuthError) -> TransportRequest {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      throw AuthError(.configuration, "The Graph URL is not valid.", provider: .facebook)
    }
    let query = FormEncoding.encode(fields)
    if let existing = components.percentEncodedQuery, !existing.isEmpty {
      components.percentEncodedQuery = existing + "&" + query
    } else {
      components.percentEncodedQuery = query
    }
    guard let full = components.url else {
      throw AuthError(.configuration, "The Graph URL could not be built.", provider: .facebook)
    }
    return TransportRequest(
      method: method, url: full, headers: ["Accept": "application/json"], timeout: timeout)
  }

  /// GETs `access_token` with `query` (a code exchange or `fb_exchange_token`) and parses the
  /// token response; `expires_in` may be absent (the token then has no known expiry).
  func tokenRequest(_ query: [(String, String)], operation: String) async throws
    -> OAuth2TokenResponse
  {
    let secrets = query.filter { Redaction.isSecretName($0.0) || $0.0 == "code" }.map(\.1)
    do {
      let url = configuration.accessTokenEndpoint
      let request = try Self.request("GET", url, query, timeout: configuration.requestTimeout)
      let response = try await send(request, operation: operation)
      let now = clock.wallTime
      guard response.isSuccess, response.jsonObject?["error"] == nil else {
        throw FacebookGraphError.failure(response, operation: operation, now: now)
      }
      return try OAuth2TokenResponse(
        response: response, receivedAt: now, requestedScopes: configuration.scopes,
        scopeSeparator: ",", operation: operation, provider: .facebook)
    } catch let error as AuthError {
      let appSecret = configuration.appSecret.map(\.revealed).flatMap { $0.isEmpty ? nil : $0 }
      throw error.masking(secrets + (appSecret.map { [$0] } ?? []))
    }
  }
}
