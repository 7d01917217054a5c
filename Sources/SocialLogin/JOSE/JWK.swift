import SocialLoginCrypto

/// A JWS signature algorithm this library verifies (RFC 7518 §3).
///
/// `none` is deliberately absent: unsecured tokens are always rejected.
///
/// ```swift
/// let verifier = JWSVerifier(allowedAlgorithms: [.rs256, .es256])
/// ```
public enum JWSAlgorithm: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  /// HMAC with SHA-256.
  case hs256 = "HS256"
  /// HMAC with SHA-384.
  case hs384 = "HS384"
  /// HMAC with SHA-512.
  case hs512 = "HS512"
  /// RSASSA-PKCS1-v1_5 with SHA-256.
  case rs256 = "RS256"
  /// RSASSA-PKCS1-v1_5 with SHA-384.
  case rs384 = "RS384"
  /// RSASSA-PKCS1-v1_5 with SHA-512.
  case rs512 = "RS512"
  /// ECDSA on P-256 with SHA-256 (64-byte `r || s` signatures).
  case es256 = "ES256"

  /// The public-key algorithms: the safe default for tokens from an identity provider.
  public static let asymmetric: Set<JWSAlgorithm> = [.rs256, .rs384, .rs512, .es256]

  /// The JWA name, for example `RS256`.
  public var description: String { rawValue }

  /// The key type that can verify this algorithm.
  public var keyType: JWK.KeyType {
    switch self {
    case .hs256, .hs384, .hs512: .octet
    case .rs256, .rs384, .rs512: .rsa
    case .es256: .ellipticCurve
    }
  }
}

/// A JSON Web Key (RFC 7517) that can verify signatures: RSA (`n`, `e`), EC P-256 (`x`, `y`) or
/// a symmetric `oct` key (`k`).
///
/// The key is decoded and prepared once, when the `JWK` is created: RSA keys precompute their
/// Montgomery constants, EC keys validate their point, `oct` keys precompute their HMAC pads.
/// Keep the `JWK` (or its ``JWKSet``) and reuse it for every verification.
///
/// ```swift
/// let key = try JWK(parsing: Array(#"{"kty":"EC","crv":"P-256","x":"...","y":"...","kid":"k1"}"#.utf8))
/// let jws = try JWSVerifier(allowedAlgorithms: [.es256]).verify(token, key: key)
///
/// let lineChannelKey = JWK.symmetric(Array(channelSecret.utf8), algorithm: .hs256)
/// ```
///
/// `description`, `debugDescription` and reflection never show key material.
public struct JWK: Sendable, CustomStringConvertible, CustomReflectable {
  /// The `kty` of a supported key.
  public enum KeyType: String, Sendable, Hashable {
    /// `RSA`.
    case rsa = "RSA"
    /// `EC` (only the P-256 curve is supported).
    case ellipticCurve = "EC"
    /// `oct`: a symmetric HMAC key.
    case octet = "oct"
  }

  enum Material: Sendable {
    case rsa(RSAPublicKey)
    case p256(P256PublicKey)
    case symmetric(SymmetricKey)
  }

  /// An HMAC key with its SHA-256 pads already absorbed.
  struct SymmetricKey: Sendable {
    let bytes: [UInt8]
    let hmacSHA256: HMAC<SHA256>
  }

  /// The key type.
  public let keyType: KeyType
  /// The `kid`, if any.
  public let keyID: String?
  /// The `use` (`sig` or `enc`), if any.
  public let use: String?
  /// The `alg` the key is restricted to, if any (kept verbatim, even when unsupported).
  public let algorithm: String?
  /// The `key_ops`, if any.
  public let keyOperations: [String]?
  /// The `crv` of an EC key (`P-256`).
  public var curve: String? { keyType == .ellipticCurve ? "P-256" : nil }

  let material: Material

  /// Parses a JWK from its JSON text.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with a ``JOSEError``: ``JOSEError/Reason/malformed``
  ///   for bad JSON, ``JOSEError/Reason/invalidKey`` for a missing or malformed member or an
  ///   unusable key, ``JOSEError/Reason/unsupportedKey`` for other key types and curves.
  public init<Bytes: Collection<UInt8>>(parsing json: Bytes) throws(AuthError) {
    let value: JSONValue
    do throws(JSONParseError) {
      value = try JSONValue(parsing: json)
    } catch {
      throw JOSEError(.malformed, "The JWK is not valid JSON: \(error).").asAuthError
    }
    try self.init(json: value)
  }

  /// Builds a JWK from a parsed JSON object.
  ///
  /// - Throws: as ``init(parsing:)``.
  public init(json: JSONValue) throws(AuthError) {
    do throws(JOSEError) {
      try self.init(validating: json)
    } catch {
      throw error.asAuthError
    }
  }

  init(validating json: JSONValue) throws(JOSEError) {
    let members = try JWKMembers(json, kind: "JWK")
    keyID = try members.string("kid")
    use = try members.string("use")
    algorithm = try members.string("alg")
    switch members["key_ops"] {
    case nil: keyOperations = nil
    case .array(let operations)?:
      var names: [String] = []
      for operation in operations {
        guard case .string(let name) = operation else {
          throw JOSEError(.invalidKey, "The JWK member 'key_ops' must hold strings.")
        }
        names.append(name)
      }
      keyOperations = names
    default:
      throw JOSEError(.invalidKey, "The JWK member 'key_ops' is not an array.")
    }
    guard let kty = try members.string("kty") else {
      throw JOSEError(.invalidKey, "The JWK has no 'kty' member.")
    }
    switch kty {
    case "RSA":
      keyType = .rsa
      do {
        material = .rsa(
          try RSAPublicKey(modulus: try members.bytes("n"), exponent: try members.bytes("e")))
      } catch let error as JOSEError {
        throw error
      } catch {
        throw JOSEError(.invalidKey, "The RSA JWK is not a usable key (\(error)).")
      }
    case "EC":
      keyType = .ellipticCurve
      guard let curve = try members.string("crv") else {
        throw JOSEError(.invalidKey, "The EC JWK has no 'crv' member.")
      }
      guard curve == "P-256" else {
        throw JOSEError(.unsupportedKey, "The EC curve '\(curve)' is not supported (only P-256).")
      }
      // RFC 7518 §6.2.1.2 wants exactly 32 bytes, but real servers trim leading zero bytes
      // (Glewlwyd does, for about 1 key in 128) or add a sign byte. The value is what matters,
      // and the point is checked to be on the curve, so normalise instead of rejecting.
      guard let x = Self.coordinate(try members.bytes("x")),
        let y = Self.coordinate(try members.bytes("y"))
      else {
        throw JOSEError(.invalidKey, "P-256 coordinates must fit in 32 bytes.")
      }
      do {
        material = .p256(try P256PublicKey(x: x, y: y))
      } catch {
        throw JOSEError(.invalidKey, "The EC JWK is not a usable P-256 key (\(error)).")
      }
    case "oct":
      keyType = .octet
      let secret = try members.bytes("k")
      guard !secret.isEmpty else { throw JOSEError(.invalidKey, "The oct JWK has an empty 'k'.") }
      material = .symmetric(SymmetricKey(bytes: secret, hmacSHA256: HMAC(key: secret)))
    default:
      throw JOSEError(.unsupportedKey, "The key type '\(kty)' is not supported.")
    }
  }

  /// Creates a symmetric (`oct`) key from raw secret bytes, for `HS256`/`HS384`/`HS512`.
  ///
  /// LINE Login signs web-login ID tokens with `HS256` keyed by the UTF-8 channel secret:
  ///
  /// ```swift
  /// let key = JWK.symmetric(Array(channelSecret.revealed.utf8), algorithm: .hs256)
  /// ```
  ///
  /// - Parameters:
  ///   - secret: The key bytes.
  ///   - keyID: An optional `kid`.
  ///   - algorithm: Restricts the key to one algorithm (recommended).
  public static func symmetric(
    _ secret: some Collection<UInt8>, keyID: String? = nil, algorithm: JWSAlgorithm? = nil
  ) -> JWK {
    let bytes = Array(secret)
    return JWK(
      keyType: .octet, keyID: keyID, use: "sig", algorithm: algorithm?.rawValue,
      keyOperations: nil,
      material: .symmetric(SymmetricKey(bytes: bytes, hmacSHA256: HMAC(key: bytes))))
  }

  init(
    keyType: KeyType, keyID: String?, use: String?, algorithm: String?, keyOperations: [String]?,
    material: Material
  ) {
    self.keyType = keyType
    self.keyID = keyID
    self.use = use
    self.algorithm = algorithm
    self.keyOperations = keyOperations
    self.material = material
  }

  /// Whether the key may verify signatures: `use` is absent or `sig`, and `key_ops`, when
  /// present, contains `verify`.
  public var isSigningKey: Bool { signingRefusal == nil }

  /// Why the key must not verify signatures, or `nil` when it may.
  var signingRefusal: String? {
    if let use, use != "sig" {
      return "The key\(kidSuffix) is marked 'use: \(use)', not for signatures."
    }
    if let keyOperations, !keyOperations.contains("verify") {
      return "The key\(kidSuffix) has 'key_ops' without 'verify'."
    }
    return nil
  }

  /// A big-endian coordinate as exactly 32 bytes: leading zero bytes trimmed or added.
  /// `nil` when the value does not fit in 32 bytes or is empty.
  static func coordinate(_ bytes: [UInt8]) -> [UInt8]? {
    let significant = bytes.drop { $0 == 0 }
    guard !bytes.isEmpty, significant.count <= 32 else { return nil }
    return [UInt8](repeating: 0, count: 32 - significant.count) + significant
  }

  private var kidSuffix: String { keyID.map { " '\($0)'" } ?? "" }

  /// Checks that this key may verify `algorithm`.
  func checkUsable(for algorithm: JWSAlgorithm) throws(JOSEError) {
    if let refusal = signingRefusal { throw JOSEError(.keyNotForSigning, refusal) }
    guard algorithm.keyType == keyType else {
      throw JOSEError(
        .keyAlgorithmMismatch,
        "The header's alg \(algorithm) cannot be verified with the \(keyType.rawValue) key\(kidSuffix)."
      )
    }
    if let own = self.algorithm, own != algorithm.rawValue {
      throw JOSEError(
        .keyAlgorithmMismatch,
        "The key\(kidSuffix) is restricted to alg \(own), but the header says \(algorithm).")
    }
  }

  /// Verifies `signature` over `signingInput` with `algorithm` (already checked usable).
  func isValidSignature(
    _ signature: [UInt8], signingInput: Substring.UTF8View, algorithm: JWSAlgorithm
  ) -> Bool {
    switch (material, algorithm) {
    case (.rsa(let key), .rs256):
      return key.isValidPKCS1v15Signature(
        signature, digest: SHA256.hash(signingInput), hash: .sha256)
    case (.rsa(let key), .rs384):
      return key.isValidPKCS1v15Signature(
        signature, digest: SHA384.hash(signingInput), hash: .sha384)
    case (.rsa(let key), .rs512):
      return key.isValidPKCS1v15Signature(
        signature, digest: SHA512.hash(signingInput), hash: .sha512)
    case (.p256(let key), .es256):
      guard signature.count == 64 else { return false }
      return key.isValidSignature(rawRS: signature, digest: SHA256.hash(signingInput))
    case (.symmetric(let key), .hs256):
      var mac = key.hmacSHA256
      mac.update(signingInput)
      return ConstantTime.equals(mac.finalize(), signature)
    case (.symmetric(let key), .hs384):
      return HMAC<SHA384>.isValidAuthenticationCode(signature, for: signingInput, using: key.bytes)
    case (.symmetric(let key), .hs512):
      return HMAC<SHA512>.isValidAuthenticationCode(signature, for: signingInput, using: key.bytes)
    default:
      return false
    }
  }

  /// `JWK(kty: RSA, kid: k1, use: sig, alg: RS256)`; never the key material.
  public var description: String {
    var parts = ["kty: \(keyType.rawValue)"]
    if let keyID { parts.append("kid: \(keyID)") }
    if let use { parts.append("use: \(use)") }
    if let algorithm { parts.append("alg: \(algorithm)") }
    if let keyOperations { parts.append("key_ops: \(keyOperations)") }
    return "JWK(\(parts.joined(separator: ", ")))"
  }

  /// A mirror without key material.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "keyType": keyType, "keyID": keyID as Any, "use": use as Any,
        "algorithm": algorithm as Any,
      ],
      displayStyle: .struct)
  }
}

/// A JWK Set (RFC 7517 §5): the keys an identity provider publishes at its `jwks_uri`.
///
/// Parsing keeps every usable key and skips the others (unsupported key types or curves,
/// malformed members, RSA moduli below 2048 bits), reporting each skipped entry in
/// ``skipped``, so that one odd key in a provider's set does not break sign-in.
///
/// ```swift
/// let set = try JWKSet(parsing: response.body)
/// for entry in set.skipped { logger.notice("skipped JWK \(entry.index): \(entry.error)") }
/// let jwt = try validator.validate(token, keys: set)
/// ```
public struct JWKSet: Sendable {
  /// A key entry that was not usable.
  public struct SkippedKey: Sendable, Hashable {
    /// The entry's position in the `keys` array.
    public var index: Int
    /// The entry's `kid`, when it had a string one.
    public var keyID: String?
    /// Why it was skipped.
    public var error: JOSEError
  }

  /// The usable keys, in document order.
  public var keys: [JWK]
  /// The entries that were skipped, with reasons.
  public var skipped: [SkippedKey]

  /// Creates a set from keys.
  public init(keys: [JWK]) {
    self.keys = keys
    skipped = []
  }

  /// Parses a JWK Set document (`{"keys": [...]}`).
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` with a ``JOSEError`` when the document is not
  ///   JSON or has no `keys` array. Individual bad keys are skipped, not thrown.
  public init<Bytes: Collection<UInt8>>(parsing json: Bytes) throws(AuthError) {
    do throws(JOSEError) {
      let value: JSONValue
      do throws(JSONParseError) {
        value = try JSONValue(parsing: json)
      } catch {
        throw JOSEError(.malformed, "The JWK Set is not valid JSON: \(error).")
      }
      try self.init(validating: value)
    } catch {
      throw AuthError(.invalidResponse, error.description, underlying: error)
    }
  }

  /// Builds a set from a parsed document; see ``init(parsing:)``.
  public init(json: JSONValue) throws(AuthError) {
    do throws(JOSEError) {
      try self.init(validating: json)
    } catch {
      throw AuthError(.invalidResponse, error.description, underlying: error)
    }
  }

  init(validating json: JSONValue) throws(JOSEError) {
    guard case .array(let entries)? = json["keys"] else {
      throw JOSEError(.malformed, "A JWK Set must be an object with a 'keys' array.")
    }
    keys = []
    skipped = []
    for (index, entry) in entries.enumerated() {
      do throws(JOSEError) {
        keys.append(try JWK(validating: entry))
      } catch {
        skipped.append(SkippedKey(index: index, keyID: entry["kid"]?.stringValue, error: error))
      }
    }
  }

  /// The keys whose `kid` is `keyID`.
  public func keys(withID keyID: String) -> [JWK] {
    keys.filter { $0.keyID == keyID }
  }
}
