extension ProviderDescription {
  /// Checks what decoding cannot: a description read from a file decides where client
  /// secrets, codes and tokens go, so every endpoint is `https`, names are unique, and the
  /// rules name endpoints the description has.
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming the first problem.
  public func validate() throws(AuthError) {
    func problem(_ text: String) -> AuthError {
      AuthError(.configuration, "The description of '\(id)': \(text)", provider: id)
    }
    guard !id.rawValue.isEmpty, id.rawValue.utf8.count <= 64,
      id.rawValue.utf8.allSatisfy({ byte in
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
      })
    else { throw problem("the id must be 1 to 64 lower-case letters, digits or '-'.") }
    var names: Set<String> = []
    for endpoint in endpoints {
      guard !endpoint.name.isEmpty, names.insert(endpoint.name).inserted else {
        throw problem("endpoint names must be unique and not empty.")
      }
      guard endpoint.production.hasPrefix("https://"), endpoint.production.utf8.count <= 2048
      else { throw problem("the endpoint '\(endpoint.name)' is not an https URL.") }
    }
    for required in ["authorize", "token"] where !names.contains(required) {
      throw problem("there is no '\(required)' endpoint.")
    }
    var referenced: [String?] = [
      identity.endpoint, identity.emails?.endpoint, accessTokenCheck?.endpoint, deviceEndpoint,
    ]
    if idToken?.verification == .jwks || idToken?.verification == .keyIDSelects {
      referenced.append(idToken?.keysEndpoint ?? "keys")
    }
    switch revocation {
    case .rfc7009, .deleteGrant, .accessToken: referenced.append("revoke")
    case .unlink: referenced.append("unlink")
    case .grantTypeDelete, .none: break
    }
    for name in referenced.compactMap({ $0 }) where !names.contains(name) {
      throw problem("the rules name the endpoint '\(name)', which it does not have.")
    }
    if identity.endpoint == nil, idToken == nil {
      throw problem("the identity has no profile endpoint and there is no ID token.")
    }
  }
}
