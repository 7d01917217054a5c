import SocialLoginCrypto

extension JWSSigner {
  /// Creates a signer from a private JWK (RFC 7518 §6): `RSA` with `n`, `e`, `d`, `p`, `q`,
  /// `dp`, `dq`, `qi`; `EC` `P-256` with `d` (and `x`, `y`, which must match it); or `oct`
  /// with `k`. The algorithm is the JWK's `alg` or, without one, `RS256`/`ES256`/`HS256` by key
  /// type; the `kid` is kept.
  ///
  /// ```swift
  /// let signer = try JWSSigner(privateJWK: try JSONValue(parsing: Array(jwkText.utf8)))
  /// ```
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with ``JOSEError/Reason/invalidKey`` (missing or
  ///   inconsistent members) or ``JOSEError/Reason/unsupportedKey`` (other key types, curves
  ///   or algorithms).
  public init(privateJWK json: JSONValue) throws(AuthError) {
    do throws(JOSEError) {
      self = try Self.parse(json)
    } catch {
      throw error.asAuthError
    }
  }

  private static func parse(_ json: JSONValue) throws(JOSEError) -> JWSSigner {
    let members = try JWKMembers(json, kind: "private JWK")
    let keyID = try members.string("kid")
    let named = try members.string("alg")
    func algorithm(default fallback: JWSAlgorithm) throws(JOSEError) -> JWSAlgorithm {
      guard let named else { return fallback }
      guard let algorithm = JWSAlgorithm(rawValue: named), algorithm == fallback else {
        throw JOSEError(.unsupportedKey, "A JWSSigner cannot sign '\(named)' with this key.")
      }
      return algorithm
    }
    switch try members.string("kty") {
    case "RSA"?:
      let key: RSAPrivateKey
      do {
        key = try RSAPrivateKey(
          modulus: try members.bytes("n"), publicExponent: try members.bytes("e"),
          privateExponent: try members.bytes("d"), prime1: try members.bytes("p"),
          prime2: try members.bytes("q"),
          exponent1: try members.bytes("dp"), exponent2: try members.bytes("dq"),
          coefficient: try members.bytes("qi"))
      } catch let error as JOSEError {
        throw error
      } catch {
        throw JOSEError(.invalidKey, "The RSA private JWK is not a usable key (\(error)).")
      }
      return .rs256(key, keyID: keyID).with(algorithm: try algorithm(default: .rs256))
    case "EC"?:
      guard try members.string("crv") == "P-256" else {
        throw JOSEError(.unsupportedKey, "Only P-256 EC private keys are supported.")
      }
      let key: P256PrivateKey
      do {
        key = try P256PrivateKey(rawRepresentation: try members.bytes("d"))
      } catch {
        throw JOSEError(.invalidKey, "The EC private JWK's 'd' is not a P-256 scalar.")
      }
      if members["x"] != nil || members["y"] != nil {
        guard JWK.coordinate(try members.bytes("x")) == key.publicKey.x,
          JWK.coordinate(try members.bytes("y")) == key.publicKey.y
        else { throw JOSEError(.invalidKey, "The EC private JWK's x and y do not match its d.") }
      }
      return .es256(key, keyID: keyID).with(algorithm: try algorithm(default: .es256))
    case "oct"?:
      let secret = try members.bytes("k")
      guard !secret.isEmpty else { throw JOSEError(.invalidKey, "The oct JWK has an empty 'k'.") }
      return .hs256(secret: secret, keyID: keyID).with(algorithm: try algorithm(default: .hs256))
    case let other:
      throw JOSEError(.unsupportedKey, "The key type '\(other ?? "none")' cannot sign here.")
    }
  }

  private func with(algorithm: JWSAlgorithm) -> JWSSigner {
    JWSSigner(algorithm: algorithm, keyID: keyID, key: key)
  }
}
