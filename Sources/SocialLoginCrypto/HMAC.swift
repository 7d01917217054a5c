/// HMAC (RFC 2104) over any ``HashFunction``, as used by JWT `HS256` and OAuth 1.0a `HMAC-SHA1`.
///
/// Create one per key and message, or use the one-shot static functions. Verify received tags
/// with ``isValidAuthenticationCode(_:for:using:)``, never with `==`, so that comparison time
/// does not reveal how much of a forged tag is right.
///
/// ```swift
/// let tag = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: secret)
/// guard HMAC<SHA256>.isValidAuthenticationCode(signature, for: Array(signingInput.utf8), using: secret)
/// else { throw JWTError.badSignature }
///
/// var mac = HMAC<SHA256>(key: secret)
/// mac.update(headerBytes)
/// mac.update(payloadBytes)
/// let streamedTag = mac.finalize()
/// ```
public struct HMAC<H: HashFunction>: Sendable {
  // Both hashers have already absorbed their padded key block, so the per-message cost is just
  // the message plus two short finalizations.
  private var inner: H
  private var outer: H

  /// Creates a MAC keyed with `key`.
  ///
  /// Keys longer than the hash's block size are hashed first, as RFC 2104 requires; shorter
  /// keys are zero-padded. An empty key is allowed (it is weak, but well defined).
  ///
  /// - Parameter key: The secret key.
  public init<K: Collection<UInt8>>(key: K) {
    var block = [UInt8](repeating: 0, count: H.blockByteCount)
    let keyBytes = key.count > H.blockByteCount ? H.hash(key) : Array(key)
    precondition(
      keyBytes.count <= block.count, "\(H.self).digestByteCount exceeds its blockByteCount")
    block.withUnsafeMutableBufferPointer { block in
      for (index, byte) in keyBytes.enumerated() {
        block[index] = byte
      }
      for index in block.indices {
        block[index] ^= 0x36
      }
    }
    inner = H()
    inner.update(block)
    block.withUnsafeMutableBufferPointer { block in
      for index in block.indices {
        block[index] ^= 0x36 ^ 0x5C
      }
    }
    outer = H()
    outer.update(block)
  }

  /// Feeds more of the message to the MAC.
  ///
  /// - Parameter data: The bytes to append to the message.
  public mutating func update<D: Collection<UInt8>>(_ data: D) {
    inner.update(data)
  }

  /// Returns the authentication code for everything fed so far, leaving the MAC usable.
  ///
  /// - Returns: `H.digestByteCount` bytes.
  public func finalize() -> [UInt8] {
    var outer = self.outer
    outer.update(inner.finalize())
    return outer.finalize()
  }

  /// Computes the authentication code of `message` under `key` in one call.
  ///
  /// - Parameters:
  ///   - message: The authenticated data.
  ///   - key: The secret key.
  /// - Returns: `H.digestByteCount` bytes.
  public static func authenticationCode<M: Collection<UInt8>, K: Collection<UInt8>>(
    for message: M, using key: K
  ) -> [UInt8] {
    var mac = HMAC(key: key)
    mac.update(message)
    return mac.finalize()
  }

  /// Returns whether `code` is the full-length authentication code of `message` under `key`.
  ///
  /// The comparison runs in constant time. Truncated codes are rejected: accepting any prefix
  /// would let an attacker shorten a tag until guessing it is cheap (down to zero bytes).
  ///
  /// - Parameters:
  ///   - code: The received tag, `H.digestByteCount` bytes long.
  ///   - message: The data the tag claims to authenticate.
  ///   - key: The secret key.
  /// - Returns: `true` only if `code` matches exactly.
  public static func isValidAuthenticationCode<
    C: Collection<UInt8>, M: Collection<UInt8>, K: Collection<UInt8>
  >(_ code: C, for message: M, using key: K) -> Bool {
    ConstantTime.equals(authenticationCode(for: message, using: key), code)
  }
}
