/// Why a PKCS #8 private key (an Apple `.p8` file, RFC 5208/5915) could not be read.
///
/// Each case names one thing wrong, so a service that loads a key at start-up can say which
/// file is broken and how, instead of failing every login later.
public enum PKCS8Error: Error, Equatable, Sendable {
  /// The text is not exactly one `-----BEGIN PRIVATE KEY-----` … `-----END PRIVATE KEY-----`
  /// block of base64 (an encrypted key or a SEC1 `EC PRIVATE KEY` block included).
  case invalidPEM(String)
  /// The DER inside is malformed or is not a `PrivateKeyInfo` holding an `ECPrivateKey`.
  case malformedDER(DERError)
  /// A version other than the one these structures define (0 for `PrivateKeyInfo`, 1 for
  /// `ECPrivateKey`).
  case unsupportedVersion
  /// The key is not an elliptic-curve key (its algorithm OID, dotted).
  case unsupportedKeyAlgorithm(String)
  /// The key is on another curve than P-256 (the curve OID, dotted).
  case unsupportedCurve(String)
  /// The private scalar is not a valid P-256 key.
  case invalidKey(P256KeyError)
  /// The public key stored with the private key is not the one it derives: a corrupted file.
  case publicKeyMismatch
}
