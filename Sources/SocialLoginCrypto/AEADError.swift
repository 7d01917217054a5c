/// Why ``ChaCha20Poly1305`` or ``XChaCha20Poly1305`` refused to seal or open.
///
/// A failed open says only ``Kind-swift.enum/authenticationFailed``, never which part was wrong:
/// telling a forger whether the tag, the nonce or the associated data was off would help them.
///
/// ```swift
/// do {
///   let plaintext = try XChaCha20Poly1305.open(sealed, key: key, nonce: nonce, authenticating: [])
/// } catch where error.kind == .authenticationFailed {
///   // Tampered with, truncated, or sealed under another key: treat as absent.
/// }
/// ```
public struct AEADError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reasons an AEAD call can fail.
  public enum Kind: Sendable, Equatable {
    /// The key is not ``ChaCha20Poly1305/keySize`` (32) bytes: a programming or configuration
    /// error, never a property of received data.
    case invalidKeySize
    /// The nonce is not the algorithm's `nonceSize`: 12 bytes for ChaCha20-Poly1305, 24 for
    /// XChaCha20-Poly1305.
    case invalidNonceSize
    /// The tag does not match: the ciphertext, nonce, associated data or key differ from what
    /// was sealed, or the input is shorter than a tag. No plaintext was produced.
    case authenticationFailed
  }

  /// Which check failed.
  public let kind: Kind

  /// Creates an error of `kind`.
  init(_ kind: Kind) {
    self.kind = kind
  }

  /// A sentence for logs; it never includes key, nonce or data bytes.
  public var description: String {
    switch kind {
    case .invalidKeySize: "AEAD key must be 32 bytes"
    case .invalidNonceSize: "AEAD nonce has the wrong size for the algorithm"
    case .authenticationFailed: "AEAD authentication failed (tampered, truncated or wrong key)"
    }
  }
}
