/// The parts of an X.509 certificate (RFC 5280) that token verification needs: the subject's
/// public key and the validity period.
///
/// Firebase ID tokens, for example, are verified with keys that Google publishes as PEM
/// certificates (`kid` → certificate). Parsing is strict DER throughout (see ``DERReader``):
/// non-minimal lengths, indefinite lengths, trailing bytes, a wrong key algorithm or its
/// parameters, and truncated input all throw a typed ``X509Error``. The certificate's own
/// signature and chain are **not** checked: the keys are trusted because they were fetched
/// over TLS from the provider, as the Admin SDKs do.
///
/// ```swift
/// let certificate = try X509Certificate(pemEncoded: pemText)
/// let key = try certificate.rsaPublicKey()        // for RS256
/// certificate.notAfter                             // seconds since 1970
/// ```
public struct X509Certificate: Sendable {
  /// A subject public key this library can verify with.
  public enum PublicKey: Sendable {
    /// An `rsaEncryption` key.
    case rsa(RSAPublicKey)
    /// An `id-ecPublicKey` key on `prime256v1` (P-256).
    case p256(P256PublicKey)
  }

  /// The subject's public key.
  public let publicKey: PublicKey
  /// The start of the validity period, in seconds since 1970-01-01T00:00:00Z.
  public let notBefore: Int64
  /// The end of the validity period, in seconds since 1970-01-01T00:00:00Z.
  public let notAfter: Int64
  /// The whole certificate, DER.
  public let derRepresentation: [UInt8]

  // rsaEncryption 1.2.840.113549.1.1.1, id-ecPublicKey 1.2.840.10045.2.1,
  // prime256v1 1.2.840.10045.3.1.7.
  static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
  static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
  static let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

  /// Parses one PEM certificate: a `-----BEGIN CERTIFICATE-----` line, the base64 body, and a
  /// `-----END CERTIFICATE-----` line, with only whitespace before and after.
  ///
  /// - Throws: ``X509Error/invalidPEM(_:)`` for anything else, then as ``init(derEncoded:)``.
  public init(pemEncoded text: String) throws(X509Error) {
    try self.init(derEncoded: try Self.pemBody(text))
  }

  /// Parses a DER certificate.
  ///
  /// - Throws: ``X509Error/malformedDER(_:)``, ``X509Error/unsupportedVersion``,
  ///   ``X509Error/unsupportedKeyAlgorithm(_:)``, ``X509Error/unsupportedCurve(_:)``,
  ///   ``X509Error/invalidRSAKey(_:)`` or ``X509Error/invalidP256Key(_:)``.
  public init(derEncoded der: [UInt8]) throws(X509Error) {
    do {
      var outer = DERReader(der)
      var certificate = try outer.sequence()
      try outer.finish()
      var tbs = try certificate.sequence()
      _ = try certificate.sequence()  // signatureAlgorithm
      _ = try certificate.bitStringBytes()  // signatureValue
      try certificate.finish()

      if tbs.nextTag == 0xA0 {
        var explicit = try tbs.read(0xA0)
        let version = try explicit.integerBytes()
        try explicit.finish()
        guard version == [0x01] || version == [0x02] else { throw X509Error.unsupportedVersion }
      }
      _ = try tbs.integerBytes()  // serialNumber
      _ = try tbs.sequence()  // signature
      _ = try tbs.sequence()  // issuer
      var validity = try tbs.sequence()
      let notBefore = try validity.time()
      let notAfter = try validity.time()
      try validity.finish()
      _ = try tbs.sequence()  // subject
      let publicKey = try Self.subjectPublicKey(try tbs.sequence())
      // issuerUniqueID [1], subjectUniqueID [2], extensions [3], each optional, in order.
      for tag: UInt8 in [0x81, 0x82, 0xA3] where tbs.nextTag == tag {
        _ = try tbs.readElement()
      }
      try tbs.finish()
      self.publicKey = publicKey
      self.notBefore = notBefore
      self.notAfter = notAfter
      self.derRepresentation = der
    } catch let error as X509Error {
      throw error
    } catch let error as DERError {
      throw .malformedDER(error)
    } catch {
      throw .malformedDER(.truncated)  // unreachable: only the two error types are thrown
    }
  }

  /// The RSA key, for `RS256` verification.
  ///
  /// - Throws: ``X509Error/notRSA`` for any other key.
  public func rsaPublicKey() throws(X509Error) -> RSAPublicKey {
    guard case .rsa(let key) = publicKey else { throw .notRSA }
    return key
  }

  /// SubjectPublicKeyInfo `{ algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }`.
  private static func subjectPublicKey(_ info: DERReader) throws -> PublicKey {
    var info = info
    var algorithm = try info.sequence()
    let oid = try algorithm.objectIdentifier()
    let keyBits = try info.bitStringBytes()
    try info.finish()
    if oid == rsaEncryption {
      try algorithm.null()  // RFC 3279 §2.3.1: parameters MUST be NULL
      try algorithm.finish()
      var keyReader = DERReader(keyBits)
      var rsaKey = try keyReader.sequence()
      try keyReader.finish()
      let modulus = try rsaKey.positiveIntegerBytes()
      let exponent = try rsaKey.positiveIntegerBytes()
      try rsaKey.finish()
      do throws(RSAKeyError) {
        return .rsa(try RSAPublicKey(modulus: modulus, exponent: exponent))
      } catch {
        throw X509Error.invalidRSAKey(error)
      }
    }
    if oid == ecPublicKey {
      guard algorithm.nextTag == DERReader.objectIdentifierTag else {
        throw X509Error.unsupportedKeyAlgorithm("1.2.840.10045.2.1 without a named curve")
      }
      let curve = try algorithm.objectIdentifier()
      try algorithm.finish()
      guard curve == prime256v1 else { throw X509Error.unsupportedCurve(dotted(curve)) }
      do throws(P256KeyError) {
        return .p256(try P256PublicKey(x963Representation: keyBits))
      } catch {
        throw X509Error.invalidP256Key(error)
      }
    }
    throw X509Error.unsupportedKeyAlgorithm(dotted(oid))
  }

  /// The dotted form of an OID's content bytes, for error messages.
  static func dotted(_ oid: [UInt8]) -> String {
    var components: [UInt64] = []
    var value: UInt64 = 0
    for byte in oid {
      value = value << 7 | UInt64(byte & 0x7F)
      if byte & 0x80 == 0 {
        if components.isEmpty {
          let first = min(value / 40, 2)
          components = [first, value - first * 40]
        } else {
          components.append(value)
        }
        value = 0
      }
    }
    return components.map(String.init).joined(separator: ".")
  }

  /// The DER inside one PEM `CERTIFICATE` block.
  static func pemBody(_ text: String) throws(X509Error) -> [UInt8] {
    do throws(PEM.Problem) {
      return try PEM.body(text, label: "CERTIFICATE")
    } catch {
      throw .invalidPEM(error.message)
    }
  }

}
