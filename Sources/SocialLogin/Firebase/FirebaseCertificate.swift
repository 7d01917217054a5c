import SocialLoginCrypto

/// Reads the RSA public key of one of Google's PEM certificates for Firebase ID tokens, with
/// ``SocialLoginCrypto/X509Certificate``'s strict DER reader: one `CERTIFICATE` block and
/// nothing but white space around it, DER consumed exactly (no bytes after the certificate),
/// an `rsaEncryption` SubjectPublicKeyInfo. A certificate that fails any of this is skipped,
/// never half-used.
enum FirebaseCertificate {
  /// The key of `pem` as a JWK restricted to `RS256` and named `keyID`.
  static func key(keyID: String, pem: String) throws(JOSEError) -> JWK {
    do throws(X509Error) {
      let certificate = try X509Certificate(pemEncoded: pem)
      return JWK.rsa(try certificate.rsaPublicKey(), keyID: keyID, algorithm: .rs256)
    } catch {
      throw JOSEError(
        .invalidKey, "The certificate is not a strict X.509 RSA certificate: \(error).")
    }
  }
}
