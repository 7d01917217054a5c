extension DescribedProvider {
  /// The key resolver of ``IDTokenRules/Verification/keyIDSelects``: a token whose header
  /// has a `kid` is checked against the JWKS, one without against the client secret with
  /// HS256. Without a secret an HS256 token fails with ``AuthError/Code/configuration``
  /// naming it, while JWKS tokens still verify (a backend that only checks what apps send).
  func keyIDSelectedResolver(keys: JWKSCache) -> any JWTKeyResolver {
    guard let secret = configuration.clientSecret, !secret.isEmpty else {
      let label = description.client.secretLabel
      return HeaderKeyResolver(
        withKeyID: keys,
        withoutKeyID: UnavailableKeyResolver(
          error: AuthError(
            .configuration,
            "The \(description.displayName) ID token is HS256, which needs the \(label), but "
              + "none is configured (tokens with a 'kid' and access tokens need the "
              + "\(description.client.clientIDLabel) alone).",
            provider: id)))
    }
    return HeaderKeyResolver(
      withKeyID: keys, withoutKeyID: HMACSecretResolver(secret: secret, algorithm: .hs256))
  }
}
