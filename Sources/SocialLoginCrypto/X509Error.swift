/// Why ``X509Certificate`` refused a certificate or could not give the key asked for.
public enum X509Error: Error, Equatable, Sendable {
  /// The text is not exactly one `-----BEGIN CERTIFICATE-----` … `-----END CERTIFICATE-----`
  /// block with a base64 body (whitespace around it is allowed, anything else is not).
  case invalidPEM(String)
  /// The DER is not strict DER or not shaped like a certificate.
  case malformedDER(DERError)
  /// An explicit version other than v2 or v3 (an explicit v1 is not DER: it is the default).
  case unsupportedVersion
  /// The SubjectPublicKeyInfo names an algorithm other than `rsaEncryption` and
  /// `id-ecPublicKey` (dotted OID), or gives it the wrong parameters.
  case unsupportedKeyAlgorithm(String)
  /// An EC key on a curve other than P-256 (dotted OID).
  case unsupportedCurve(String)
  /// The RSA key itself is unusable (size, exponent, encoding).
  case invalidRSAKey(RSAKeyError)
  /// The P-256 key itself is unusable (encoding, point off the curve).
  case invalidP256Key(P256KeyError)
  /// An RSA key was asked for, but the certificate holds another kind.
  case notRSA
}
