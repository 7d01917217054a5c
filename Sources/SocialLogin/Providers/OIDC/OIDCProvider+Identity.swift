import Foundation

extension OIDCProvider {
  /// The identity from the stored ID token and, when offered, userinfo, whose `sub` must match
  /// (OIDC Core §5.3.2). The ID token was validated when it was stored: its claims are read
  /// and its issuer and audience compared, its signature is not checked again (the provider
  /// may have rotated the key that signed it since).
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    let discovered = try await current()
    var claims: [String: JSONValue] = [:]
    var subject: String?
    if let idToken = credential.idToken {
      // Validated in full when it was stored; a refresh without a new one leaves it expired.
      let stored = try discovered.validator.storedClaims(idToken.revealed)
      claims = stored.claims
      subject = stored.subject
    }
    if let userinfo = discovered.metadata.userinfoEndpoint {
      let info = try await fetchUserinfo(userinfo, accessToken: credential.accessToken)
      guard let infoSubject = info["sub"]?.stringValue, subject == nil || infoSubject == subject
      else {
        throw AuthError(
          .invalidResponse, "The userinfo 'sub' does not match the ID token's subject.",
          provider: id)
      }
      subject = infoSubject
      claims.merge(info) { _, fromUserinfo in fromUserinfo }
    }
    guard let subject, !subject.isEmpty else {
      throw AuthError(
        .invalidResponse, "Neither an ID token nor userinfo named the user.", provider: id)
    }
    return Identity(claims: claims, subject: subject, provider: id)
  }

  /// GETs userinfo with the access token and returns its JSON object.
  func fetchUserinfo(_ url: URL, accessToken: Secret) async throws -> [String: JSONValue] {
    let response = try await transport.send(
      TransportRequest(
        url: url,
        headers: ["Authorization": "Bearer \(accessToken.revealed)", "Accept": "application/json"],
        timeout: .seconds(15)))
    switch response.status {
    case 200:
      guard let object = try response.decodeJSON(JSONValue.self).objectValue else {
        throw AuthError(.invalidResponse, "Userinfo did not answer a JSON object.", provider: id)
      }
      return object
    case 401, 403:
      throw AuthError(
        .invalidToken, "Userinfo rejected the access token (HTTP \(response.status)).",
        provider: id, httpStatus: response.status)
    default:
      throw AuthError(
        response.status >= 500 || response.status == 429 ? .serverUnavailable : .invalidResponse,
        "Userinfo answered HTTP \(response.status).", provider: id, httpStatus: response.status,
        retryAfter: response.retryAfter(now: clock.wallTime))
    }
  }
}

extension Identity {
  /// Builds an identity from standard OpenID Connect claims (`name`, `email`,
  /// `email_verified`, `picture`), keeping every claim in ``rawClaims``.
  init(claims: [String: JSONValue], subject: String, provider: ProviderID) {
    self.init(
      provider: provider,
      subject: subject,
      name: claims["name"]?.stringValue ?? claims["preferred_username"]?.stringValue,
      email: claims["email"]?.stringValue,
      emailVerified: claims["email_verified"]?.boolValue,
      pictureURL: claims["picture"]?.stringValue.flatMap(URL.init(string:)),
      rawClaims: .object(claims))
  }
}
