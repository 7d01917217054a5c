import SocialLoginCrypto

extension JWK {
  /// A JWK for an RSA public key, for publishing in a JWKS (an emulator's or your own).
  ///
  /// ```swift
  /// let jwk = JWK.rsa(privateKey.publicKey, keyID: "k1", algorithm: .rs256)
  /// ```
  ///
  /// - Parameters:
  ///   - key: The public key.
  ///   - keyID: The `kid` tokens will name.
  ///   - algorithm: Restricts the key to one algorithm (recommended: the verifier then refuses
  ///     any other `alg` for it).
  public static func rsa(
    _ key: RSAPublicKey, keyID: String? = nil, algorithm: JWSAlgorithm? = nil
  ) -> JWK {
    JWK(
      keyType: .rsa, keyID: keyID, use: "sig", algorithm: algorithm?.rawValue,
      keyOperations: nil, material: .rsa(key))
  }

  /// A JWK for a P-256 public key (`kty` `EC`, `crv` `P-256`), for publishing in a JWKS.
  ///
  /// ```swift
  /// let jwk = JWK.p256(privateKey.publicKey, keyID: "k2", algorithm: .es256)
  /// ```
  public static func p256(
    _ key: P256PublicKey, keyID: String? = nil, algorithm: JWSAlgorithm? = nil
  ) -> JWK {
    JWK(
      keyType: .ellipticCurve, keyID: keyID, use: "sig", algorithm: algorithm?.rawValue,
      keyOperations: nil, material: .p256(key))
  }

  /// The public JWK as a JSON object (`kty`, `n`/`e` or `crv`/`x`/`y`, and `kid`, `use`,
  /// `alg`, `key_ops` when set), or `nil` for a symmetric key: an `oct` key is all secret, so
  /// it is never exported.
  ///
  /// ```swift
  /// let text = jwk.publicJSON?.jsonText  // {"alg":"ES256","crv":"P-256","kid":"k2",...}
  /// ```
  public var publicJSON: JSONValue? {
    var members: [String: JSONValue] = [:]
    switch material {
    case .rsa(let key):
      members["kty"] = "RSA"
      members["n"] = .string(Base64URL.encode(key.modulus))
      members["e"] = .string(Base64URL.encode(key.exponent))
    case .p256(let key):
      members["kty"] = "EC"
      members["crv"] = "P-256"
      members["x"] = .string(Base64URL.encode(key.x))
      members["y"] = .string(Base64URL.encode(key.y))
    case .symmetric:
      return nil
    }
    if let keyID { members["kid"] = .string(keyID) }
    if let use { members["use"] = .string(use) }
    if let algorithm { members["alg"] = .string(algorithm) }
    if let keyOperations { members["key_ops"] = .array(keyOperations.map { .string($0) }) }
    return .object(members)
  }
}

extension JWKSet {
  /// The set as a JWKS document, `{"keys": [...]}`, with the public keys only (symmetric keys
  /// are left out, see ``JWK/publicJSON``): what a `jwks_uri` serves.
  ///
  /// ```swift
  /// let body = JWKSet(keys: [signer.publicJWK].compactMap { $0 }).publicJSON.jsonText
  /// ```
  public var publicJSON: JSONValue {
    .object(["keys": .array(keys.compactMap(\.publicJSON))])
  }
}
