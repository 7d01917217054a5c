import SocialLoginCrypto

/// Proof Key for Code Exchange (RFC 7636): code verifiers and their challenges.
///
/// ```swift
/// let verifier = PKCE.makeVerifier()               // 43 unreserved characters, 256 bits
/// let challenge = PKCE.s256Challenge(for: verifier)
/// PKCE.s256Challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
/// // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" (RFC 7636 Appendix B)
/// ```
public enum PKCE {
  /// Returns a new code verifier: 32 random bytes as 43 base64url characters, which are all in
  /// RFC 7636's unreserved set `[A-Za-z0-9-._~]`.
  public static func makeVerifier() -> String {
    SecureRandom.urlSafeToken(byteCount: 32)
  }

  /// The `S256` challenge: unpadded base64url of SHA-256 of the verifier's ASCII bytes.
  public static func s256Challenge(for verifier: String) -> String {
    Base64URL.encode(SHA256.hash(verifier.utf8))
  }

  /// The challenge for `verifier` under `method`, or `nil` when PKCE is disabled.
  public static func challenge(
    for verifier: String, method: OAuth2Configuration.PKCEMode
  ) -> String? {
    switch method {
    case .s256: return s256Challenge(for: verifier)
    case .plain: return verifier
    case .disabled: return nil
    }
  }

  /// Whether `verifier` is a valid RFC 7636 §4.1 code verifier: 43 to 128 characters from
  /// `[A-Za-z0-9-._~]`.
  public static func isValidVerifier(_ verifier: String) -> Bool {
    (43...128).contains(verifier.utf8.count)
      && verifier.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F
          || byte == 0x7E
      }
  }
}
