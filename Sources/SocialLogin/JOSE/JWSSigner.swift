import SocialLoginCrypto

/// Produces compact JWS and JWT strings (RFC 7515 §7.1) with `HS256`, `RS256` or `ES256`.
///
/// The counterpart of ``JWSVerifier``: what an emulator, a test or your own token service uses
/// to issue tokens that this library (or any JOSE library) verifies. The header is
/// `{"alg":…,"kid":…}` (plus `"typ":"JWT"` for ``signJWT(claims:header:)``) and any extra
/// members you pass; JSON is written with sorted keys, so output is reproducible.
///
/// ```swift
/// let key = P256PrivateKey()
/// let signer = JWSSigner.es256(key, keyID: "k1")
/// let token = try signer.signJWT(claims: ["iss": "https://issuer.example", "sub": "42",
///                                         "aud": "client", "exp": 1_900_000_000])
/// let jwks = JWKSet(keys: [signer.publicJWK].compactMap { $0 }).publicJSON.jsonText
///
/// let line = JWSSigner.hs256(secret: Array(channelSecret.utf8))  // LINE web-login tokens
/// ```
///
/// `description` never shows key material.
public struct JWSSigner: Sendable, CustomStringConvertible {
  enum Key: Sendable {
    case hmac(HMAC<SHA256>)
    case rsa(RSAPrivateKey)
    case p256(P256PrivateKey)
  }

  /// The `alg` this signer writes.
  public let algorithm: JWSAlgorithm
  /// The `kid` this signer writes, if any.
  public let keyID: String?
  let key: Key

  /// `HS256` with a shared secret (for example LINE's channel secret, or a test's secret).
  public static func hs256(secret: some Collection<UInt8>, keyID: String? = nil) -> JWSSigner {
    JWSSigner(algorithm: .hs256, keyID: keyID, key: .hmac(HMAC<SHA256>(key: secret)))
  }

  /// `RS256` with an RSA private key.
  public static func rs256(_ key: RSAPrivateKey, keyID: String? = nil) -> JWSSigner {
    JWSSigner(algorithm: .rs256, keyID: keyID, key: .rsa(key))
  }

  /// `ES256` with a P-256 private key (deterministic ECDSA, RFC 6979).
  public static func es256(_ key: P256PrivateKey, keyID: String? = nil) -> JWSSigner {
    JWSSigner(algorithm: .es256, keyID: keyID, key: .p256(key))
  }

  init(algorithm: JWSAlgorithm, keyID: String?, key: Key) {
    self.algorithm = algorithm
    self.keyID = keyID
    self.key = key
  }

  /// The public JWK that verifies this signer's tokens (with its `kid` and `alg`), or `nil`
  /// for `HS256`, whose key is secret.
  public var publicJWK: JWK? {
    switch key {
    case .hmac: nil
    case .rsa(let key): JWK.rsa(key.publicKey, keyID: keyID, algorithm: algorithm)
    case .p256(let key): JWK.p256(key.publicKey, keyID: keyID, algorithm: algorithm)
    }
  }

  /// Signs `payload` and returns `BASE64URL(header).BASE64URL(payload).BASE64URL(signature)`.
  ///
  /// - Parameters:
  ///   - payload: Any bytes (for a JWT, use ``signJWT(claims:header:)``).
  ///   - header: Extra protected-header members; they must not set `alg` or `kid`.
  /// - Throws: ``AuthError/Code/configuration`` if `header` sets `alg` or `kid`, or (RSA only)
  ///   ``AuthError/Code/unsupported`` if the signature failed its self-check.
  public func sign(payload: some Collection<UInt8>, header: [String: JSONValue] = [:])
    throws(AuthError) -> String
  {
    guard header["alg"] == nil, header["kid"] == nil else {
      throw AuthError(
        .configuration, "JWSSigner writes 'alg' and 'kid' itself; do not pass them in the header.")
    }
    var members = header
    members["alg"] = .string(algorithm.rawValue)
    if let keyID { members["kid"] = .string(keyID) }
    let signingInput =
      Base64URL.encode(Array(JSONValue.object(members).jsonText.utf8)) + "."
      + Base64URL.encode(Array(payload))
    let input = Array(signingInput.utf8)
    let signature: [UInt8]
    switch key {
    case .hmac(let mac):
      var mac = mac
      mac.update(input)
      signature = mac.finalize()
    case .rsa(let key):
      do throws(RSAKeyError) {
        signature = try key.signature(for: input, hash: .sha256)
      } catch {
        throw AuthError(
          .unsupported, "The RS256 signature failed its self-check (\(error)).", underlying: error)
      }
    case .p256(let key):
      signature = key.signature(for: input).rawRepresentation
    }
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// Signs a JWT: `claims` as the JSON payload and `"typ":"JWT"` in the header.
  ///
  /// - Parameters:
  ///   - claims: The claims object (`iss`, `sub`, `aud`, `exp`, `iat`, …).
  ///   - header: Extra header members (`typ` may be overridden, `alg` and `kid` may not).
  /// - Throws: as ``sign(payload:header:)``.
  public func signJWT(claims: [String: JSONValue], header: [String: JSONValue] = [:])
    throws(AuthError) -> String
  {
    var members = header
    if members["typ"] == nil { members["typ"] = "JWT" }
    return try sign(payload: Array(JSONValue.object(claims).jsonText.utf8), header: members)
  }

  /// `JWSSigner(ES256, kid: k1)`; never the key.
  public var description: String {
    "JWSSigner(\(algorithm.rawValue)" + (keyID.map { ", kid: \($0)" } ?? "") + ")"
  }
}
