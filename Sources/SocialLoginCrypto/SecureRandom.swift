/// Cryptographically secure random bytes for PKCE verifiers, OAuth `state` and `nonce` values.
///
/// Backed by `SystemRandomNumberGenerator`, which reads the operating system's CSPRNG
/// (`getrandom`/`arc4random_buf`/`BCryptGenRandom`) and never falls back to a weaker source.
///
/// ```swift
/// let state = SecureRandom.urlSafeToken()          // 43 characters, 256 bits
/// let verifier = SecureRandom.urlSafeToken(byteCount: 48)
/// ```
public enum SecureRandom {
  /// Returns `count` random bytes.
  ///
  /// - Parameter count: The number of bytes; must not be negative.
  /// - Returns: An array of exactly `count` bytes.
  public static func bytes(count: Int) -> [UInt8] {
    precondition(count >= 0, "SecureRandom.bytes(count:) needs a non-negative count")
    var generator = SystemRandomNumberGenerator()
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
      // One system call yields 8 bytes; asking per byte would cost 8 times as many.
      var offset = 0
      while offset < count {
        let word = generator.next()
        let taken = min(8, count - offset)
        withUnsafeBytes(of: word) { word in
          for index in 0..<taken {
            buffer[offset + index] = word[index]
          }
        }
        offset += taken
      }
      initializedCount = count
    }
  }

  /// Returns a random token made of base64url characters (`A-Z a-z 0-9 - _`), without padding.
  ///
  /// Safe to place in URLs, cookies and headers without escaping. The default of 32 bytes
  /// gives a 43-character token carrying 256 bits of entropy, which also satisfies RFC 7636's
  /// 43...128 character range for PKCE code verifiers.
  ///
  /// - Parameter byteCount: How many random bytes to encode; must not be negative.
  /// - Returns: `ceil(byteCount * 4 / 3)` characters.
  public static func urlSafeToken(byteCount: Int = 32) -> String {
    Base64URL.encode(bytes(count: byteCount))
  }
}
