import Foundation
import SocialLoginCrypto

/// The decoded JOSE header of a compact JWS.
///
/// ```swift
/// let header = try CompactJWS(parsing: token).header
/// header.algorithm  // "ES256"
/// header.keyID      // "a1b2"
/// ```
public struct JOSEHeader: Sendable, Hashable {
  /// The whole header object.
  public let json: JSONValue
  /// The `alg` value, verbatim.
  public let algorithm: String
  /// The `kid`, if any.
  public let keyID: String?
  /// The `typ`, if any.
  public let type: String?
  /// The `crit` extension names, if any.
  public let critical: [String]?

  init(json: JSONValue) throws(JOSEError) {
    guard case .object(let members) = json else {
      throw JOSEError(.malformed, "The JOSE header is not a JSON object.")
    }
    guard case .string(let alg)? = members["alg"] else {
      throw JOSEError(.malformed, "The JOSE header has no string 'alg'.")
    }
    func optionalString(_ name: String) throws(JOSEError) -> String? {
      switch members[name] {
      case nil: return nil
      case .string(let value)?: return value
      default: throw JOSEError(.malformed, "The JOSE header's '\(name)' is not a string.")
      }
    }
    self.json = json
    algorithm = alg
    keyID = try optionalString("kid")
    type = try optionalString("typ")
    switch members["crit"] {
    case nil:
      critical = nil
    case .array(let names)? where !names.isEmpty:
      var list: [String] = []
      for name in names {
        guard case .string(let text) = name else {
          throw JOSEError(.malformed, "The JOSE header's 'crit' must list strings.")
        }
        list.append(text)
      }
      critical = list
    default:
      throw JOSEError(.malformed, "The JOSE header's 'crit' must be a non-empty array.")
    }
  }
}

/// A compact-serialized JWS (RFC 7515 §7.1), parsed but **not verified**.
///
/// Use it to look at the header before choosing keys; use ``JWSVerifier`` to verify. Parsing is
/// strict: exactly three segments, canonical unpadded base64url, a JSON-object header with a
/// string `alg`, and at most ``defaultMaximumByteCount`` bytes unless told otherwise.
///
/// ```swift
/// let jws = try CompactJWS(parsing: token)
/// if jws.header.keyID == nil { ... }
/// ```
public struct CompactJWS: Sendable {
  /// The default size cap for a whole token: 16 KiB.
  public static let defaultMaximumByteCount = 16 * 1024

  /// The decoded header.
  public let header: JOSEHeader
  /// The decoded payload bytes (any bytes for a JWS; a JSON object for a JWT).
  public let payload: [UInt8]
  /// The decoded signature bytes.
  public let signature: [UInt8]

  /// `BASE64URL(header) '.' BASE64URL(payload)`: the bytes the signature covers.
  let signingInput: Substring

  /// Parses `token`.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with ``JOSEError/Reason/tooLarge`` or
  ///   ``JOSEError/Reason/malformed``.
  public init(parsing token: String, maximumByteCount: Int = defaultMaximumByteCount)
    throws(AuthError)
  {
    do throws(JOSEError) {
      try self.init(validating: token, maximumByteCount: maximumByteCount)
    } catch {
      throw error.asAuthError
    }
  }

  init(validating token: String, maximumByteCount: Int) throws(JOSEError) {
    let utf8 = token.utf8
    guard utf8.count <= maximumByteCount else {
      throw JOSEError(
        .tooLarge, "The token is \(utf8.count) bytes; the limit is \(maximumByteCount).")
    }
    guard let firstDot = utf8.firstIndex(of: UInt8(ascii: ".")) else {
      throw JOSEError(.malformed, "The token is not three dot-separated segments.")
    }
    let afterFirst = utf8.index(after: firstDot)
    guard let secondDot = utf8[afterFirst...].firstIndex(of: UInt8(ascii: ".")) else {
      throw JOSEError(.malformed, "The token is not three dot-separated segments.")
    }
    let afterSecond = utf8.index(after: secondDot)
    guard !utf8[afterSecond...].contains(UInt8(ascii: ".")) else {
      throw JOSEError(.malformed, "The token has more than three segments (JWE or garbage).")
    }
    func decode(_ segment: Substring, _ name: String) throws(JOSEError) -> [UInt8] {
      do {
        return try Base64URL.decode(segment)
      } catch {
        throw JOSEError(.malformed, "The \(name) segment is not canonical base64url (\(error)).")
      }
    }
    let headerBytes = try decode(token[..<firstDot], "header")
    let headerJSON: JSONValue
    do throws(JSONParseError) {
      headerJSON = try JSONValue(parsing: headerBytes, maximumDepth: 8)
    } catch {
      throw JOSEError(.malformed, "The JOSE header is not valid JSON: \(error).")
    }
    header = try JOSEHeader(json: headerJSON)
    payload = try decode(token[afterFirst..<secondDot], "payload")
    signature = try decode(token[afterSecond...], "signature")
    signingInput = token[..<secondDot]
  }
}

/// A JWS whose signature verified.
///
/// ```swift
/// let jws = try JWSVerifier(allowedAlgorithms: [.rs256]).verify(token, key: key)
/// let text = String(decoding: jws.payload, as: UTF8.self)
/// ```
public struct VerifiedJWS: Sendable {
  /// The protected header.
  public let header: JSONValue
  /// The payload bytes.
  public let payload: [UInt8]
  /// The algorithm that verified.
  public let algorithm: JWSAlgorithm
  /// The `kid` of the key that verified, if it had one.
  public let keyID: String?
}

/// A JWT whose signature verified and whose claims passed the policy.
///
/// ```swift
/// let jwt = try await validator.validate(idToken, nonce: nonce)
/// jwt.subject       // "U1234..."
/// jwt.audiences     // ["1656..."]
/// jwt.claims["email"]?.stringValue
/// ```
public struct VerifiedJWT: Sendable {
  /// The protected header.
  public let header: JSONValue
  /// The claims object.
  public let claims: JSONValue
  /// The algorithm that verified.
  public let algorithm: JWSAlgorithm
  /// The `kid` of the key that verified, if it had one.
  public let keyID: String?

  /// The claim named `name`.
  public subscript(claim name: String) -> JSONValue? { claims[name] }
  /// `iss`.
  public var issuer: String? { claims["iss"]?.stringValue }
  /// `sub`.
  public var subject: String? { claims["sub"]?.stringValue }
  /// `aud` as a list (a single string becomes one element).
  public var audiences: [String] { Self.audiences(in: claims) ?? [] }
  /// `azp`.
  public var authorizedParty: String? { claims["azp"]?.stringValue }
  /// `nonce`.
  public var nonce: String? { claims["nonce"]?.stringValue }
  /// `jti`.
  public var tokenID: String? { claims["jti"]?.stringValue }
  /// `exp`.
  public var expiresAt: Date? { date("exp") }
  /// `nbf`.
  public var notBefore: Date? { date("nbf") }
  /// `iat`.
  public var issuedAt: Date? { date("iat") }
  /// `auth_time`.
  public var authenticatedAt: Date? { date("auth_time") }

  private func date(_ name: String) -> Date? {
    claims[name]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
  }

  static func audiences(in claims: JSONValue) -> [String]? {
    switch claims["aud"] {
    case .string(let single)?: return [single]
    case .array(let values)?:
      var result: [String] = []
      for value in values {
        guard case .string(let text) = value else { return nil }
        result.append(text)
      }
      return result
    default: return nil
    }
  }
}

/// Verifies compact JWS signatures with the algorithm pinned by both the caller and the key.
///
/// A token passes only if its `alg` is in ``allowedAlgorithms`` (never `none`), the key's type
/// fits that algorithm (an RSA or EC key never verifies `HS256`: no key confusion), the key's
/// own `alg`, if any, is the same, the key is a signing key, the header's `kid` matches, every
/// `crit` extension is understood, and the signature verifies over the exact signing input.
///
/// ```swift
/// let verifier = JWSVerifier(allowedAlgorithms: [.rs256])
/// let jws = try verifier.verify(token, keys: jwks)         // signature only, payload = bytes
/// let jwt = try verifier.verifyJWT(token, keys: jwks)      // payload must be a JSON object
/// ```
public struct JWSVerifier: Sendable {
  /// The algorithms the caller accepts.
  public var allowedAlgorithms: Set<JWSAlgorithm>
  /// The size cap for a whole token.
  public var maximumByteCount: Int
  /// `crit` extensions the caller handles itself; any other listed extension is rejected.
  public var understoodCriticalHeaders: Set<String>

  /// Creates a verifier.
  public init(
    allowedAlgorithms: Set<JWSAlgorithm>,
    maximumByteCount: Int = CompactJWS.defaultMaximumByteCount,
    understoodCriticalHeaders: Set<String> = []
  ) {
    self.allowedAlgorithms = allowedAlgorithms
    self.maximumByteCount = maximumByteCount
    self.understoodCriticalHeaders = understoodCriticalHeaders
  }

  /// Verifies `token` with a single key.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with the ``JOSEError`` reason.
  public func verify(_ token: String, key: JWK) throws(AuthError) -> VerifiedJWS {
    do throws(JOSEError) {
      let jws = try parse(token)
      let algorithm = try checkAlgorithm(of: jws.header)
      return try verify(jws, algorithm: algorithm, candidates: KeySelection.single(key, jws.header))
    } catch {
      throw error.asAuthError
    }
  }

  /// Verifies `token` with the key of `keys` that its `kid` names (or, without `kid`, with the
  /// set's keys that suit the algorithm).
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with the ``JOSEError`` reason.
  public func verify(_ token: String, keys: JWKSet) throws(AuthError) -> VerifiedJWS {
    do throws(JOSEError) {
      let jws = try parse(token)
      let algorithm = try checkAlgorithm(of: jws.header)
      return try verify(
        jws, algorithm: algorithm, candidates: try KeySelection.select(keys.keys, jws.header))
    } catch {
      throw error.asAuthError
    }
  }

  /// Verifies `token` with the keys `resolver` offers for its header.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with the ``JOSEError`` reason, or whatever the
  ///   resolver throws (for example a network error while fetching a JWKS).
  public func verify(_ token: String, resolver: some JWTKeyResolver) async throws(AuthError)
    -> VerifiedJWS
  {
    let jws: CompactJWS
    let algorithm: JWSAlgorithm
    do throws(JOSEError) {
      jws = try parse(token)
      algorithm = try checkAlgorithm(of: jws.header)
    } catch {
      throw error.asAuthError
    }
    let candidates = try await resolver.candidateKeys(for: jws.header)
    do throws(JOSEError) {
      return try verify(jws, algorithm: algorithm, candidates: candidates)
    } catch {
      throw error.asAuthError
    }
  }

  /// Verifies `token` with `key` and decodes its payload as a JSON object (no claim checks;
  /// use ``JWTValidator`` or ``IDTokenValidator`` for those).
  public func verifyJWT(_ token: String, key: JWK) throws(AuthError) -> VerifiedJWT {
    try Self.jwt(from: verify(token, key: key))
  }

  /// Verifies `token` with `keys` and decodes its payload as a JSON object (no claim checks).
  public func verifyJWT(_ token: String, keys: JWKSet) throws(AuthError) -> VerifiedJWT {
    try Self.jwt(from: verify(token, keys: keys))
  }

  static func jwt(from jws: VerifiedJWS) throws(AuthError) -> VerifiedJWT {
    do throws(JOSEError) {
      return VerifiedJWT(
        header: jws.header, claims: .object(try claims(of: jws.payload)),
        algorithm: jws.algorithm, keyID: jws.keyID)
    } catch {
      throw error.asAuthError
    }
  }

  static func claims(of payload: [UInt8]) throws(JOSEError) -> [String: JSONValue] {
    let value: JSONValue
    do throws(JSONParseError) {
      value = try JSONValue(parsing: payload)
    } catch {
      throw JOSEError(.payloadNotJSON, "The JWT payload is not valid JSON: \(error).")
    }
    guard case .object(let members) = value else {
      throw JOSEError(.payloadNotJSON, "The JWT payload is not a JSON object.")
    }
    return members
  }

  // MARK: Steps

  func parse(_ token: String) throws(JOSEError) -> CompactJWS {
    let jws = try CompactJWS(validating: token, maximumByteCount: maximumByteCount)
    if let critical = jws.header.critical {
      for name in critical where !understoodCriticalHeaders.contains(name) {
        throw JOSEError(
          .unsupportedCritical, "The header marks the extension '\(name)' critical (crit).")
      }
    }
    return jws
  }

  func checkAlgorithm(of header: JOSEHeader) throws(JOSEError) -> JWSAlgorithm {
    if header.algorithm.lowercased() == "none" {
      throw JOSEError(.algorithmNotAllowed, "Unsecured tokens (alg none) are never accepted.")
    }
    guard let algorithm = JWSAlgorithm(rawValue: header.algorithm) else {
      throw JOSEError(
        .unsupportedAlgorithm, "The algorithm '\(header.algorithm)' is not supported.")
    }
    guard allowedAlgorithms.contains(algorithm) else {
      let allowed = allowedAlgorithms.map(\.rawValue).sorted().joined(separator: ", ")
      throw JOSEError(
        .algorithmNotAllowed, "The algorithm \(algorithm) is not allowed (allowed: \(allowed)).")
    }
    return algorithm
  }

  func verify(_ jws: CompactJWS, algorithm: JWSAlgorithm, candidates: [JWK]) throws(JOSEError)
    -> VerifiedJWS
  {
    var firstRefusal: JOSEError?
    var triedAny = false
    for key in candidates {
      do throws(JOSEError) {
        try key.checkUsable(for: algorithm)
      } catch {
        if firstRefusal == nil { firstRefusal = error }
        continue
      }
      triedAny = true
      if key.isValidSignature(
        jws.signature, signingInput: jws.signingInput.utf8, algorithm: algorithm)
      {
        return VerifiedJWS(
          header: jws.header.json, payload: jws.payload, algorithm: algorithm, keyID: key.keyID)
      }
    }
    if triedAny {
      throw JOSEError(.signatureInvalid, "The \(algorithm) signature does not verify.")
    }
    if let firstRefusal { throw firstRefusal }
    throw JOSEError(.keyNotFound, "No key is available to verify the token.")
  }
}

/// How candidate keys are picked from a header.
enum KeySelection {
  /// The most keys tried for a header without `kid`.
  static let maximumCandidates = 8

  /// One configured key: the header's `kid`, if both have one, must match.
  static func single(_ key: JWK, _ header: JOSEHeader) throws(JOSEError) -> [JWK] {
    if let wanted = header.keyID, let own = key.keyID, wanted != own {
      throw JOSEError(.kidMismatch, "The header's kid '\(wanted)' is not the key's kid '\(own)'.")
    }
    return [key]
  }

  /// A key set: the keys named by `kid`, or (without `kid`) every key.
  static func select(_ keys: [JWK], _ header: JOSEHeader) throws(JOSEError) -> [JWK] {
    if let wanted = header.keyID {
      let matching = keys.filter { $0.keyID == wanted }
      guard !matching.isEmpty else {
        throw JOSEError(.keyNotFound, "No key has the kid '\(wanted)'.")
      }
      return matching
    }
    guard !keys.isEmpty else { throw JOSEError(.keyNotFound, "The key set is empty.") }
    return Array(keys.prefix(maximumCandidates))
  }
}
