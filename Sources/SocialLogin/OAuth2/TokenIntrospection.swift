import Foundation

/// What an RFC 7662 introspection endpoint said about a token.
///
/// Only an ``isActive`` token may be trusted, and only for the client it was issued to
/// (``clientID``) or the audiences it names (``audiences``): check both before accepting it.
///
/// ```swift
/// let info = try await oauth.introspect(token, at: endpoint, hint: .accessToken)
/// guard info.isActive, info.clientID == myClientID else { throw Unauthorized() }
/// ```
public struct TokenIntrospection: Hashable, Sendable {
  /// `active`: whether the token is currently valid at the provider.
  public var isActive: Bool
  /// `client_id`: the client the token was issued to, when the provider said.
  public var clientID: String?
  /// `aud`: the audiences the token is meant for (a string or an array on the wire).
  public var audiences: [String]
  /// `sub`: whose the token is, when the provider said.
  public var subject: String?
  /// `iss`: who issued the token, when the provider said.
  public var issuer: String?
  /// `exp`: when the token expires, when the provider said.
  public var expiresAt: Date?
  /// `scope`, split on spaces.
  public var scopes: [String]
  /// Every member of the response, for provider-specific claims.
  public var claims: [String: JSONValue]

  /// Reads an introspection response object (RFC 7662 §2.2).
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` when `active` is missing or not a boolean.
  public init(claims: [String: JSONValue], provider: ProviderID? = nil) throws(AuthError) {
    guard let active = claims["active"]?.boolValue else {
      throw AuthError(
        .invalidResponse, "The introspection response has no boolean 'active'.",
        provider: provider)
    }
    isActive = active
    clientID = claims["client_id"]?.stringValue
    audiences = VerifiedJWT.audiences(in: .object(claims)) ?? []
    subject = claims["sub"]?.stringValue
    issuer = claims["iss"]?.stringValue
    expiresAt = claims["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
    scopes =
      claims["scope"]?.stringValue.map { $0.split(separator: " ").map(String.init) } ?? []
    self.claims = claims
  }
}

extension OAuth2Client {
  /// Asks an RFC 7662 introspection endpoint about `token`, with the configured client
  /// authentication (introspection requires it, §2.1).
  ///
  /// ```swift
  /// let info = try await client.introspect(accessToken, at: endpoint, hint: .accessToken)
  /// ```
  ///
  /// - Parameters:
  ///   - token: The token to ask about.
  ///   - endpoint: The introspection endpoint (discovery's `introspection_endpoint`).
  ///   - hint: The token's type, if known.
  /// - Returns: The provider's answer; an inactive token is an answer, not an error.
  /// - Throws: ``AuthError/Code/invalidResponse`` for a body that is not a JSON object with a
  ///   boolean `active`; otherwise as ``requestToken(grantType:fields:requestedScopes:)``
  ///   (a 401 or 403 usually means this client may not introspect).
  public func introspect(
    _ token: Secret, at endpoint: URL, hint: TokenTypeHint? = nil
  ) async throws -> TokenIntrospection {
    let operation = "The introspection request"
    var fields = [("token", token.revealed)]
    if let hint { fields.append(("token_type_hint", hint.rawValue)) }
    return try await maskingSecrets(of: fields) {
      let response = try await post(to: endpoint, fields: fields, operation: operation)
      guard response.isSuccess else {
        throw response.oauth2Failure(operation, provider: provider, now: clock.wallTime)
      }
      guard let object = response.jsonObject else {
        throw AuthError(
          .invalidResponse,
          "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
          provider: provider, httpStatus: response.status, responseBodySize: response.body.count)
      }
      return try TokenIntrospection(claims: object, provider: provider)
    }
  }
}
