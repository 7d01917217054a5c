/// An RSA public key that verifies RSASSA-PKCS1-v1_5 signatures (RFC 8017 §8.2.2), as used by
/// JWS `RS256`, `RS384` and `RS512`.
///
/// The key does the per-key work once, in its initializer (Montgomery constants and `R^2 mod n`),
/// so keep one value per JWKS key and reuse it for every verification. Verification only
/// (``RSAPrivateKey`` signs). It handles public data only, so its modular arithmetic may take
/// data-dependent time; the final comparison of the encoded message is constant time.
///
/// ```swift
/// let key = try RSAPublicKey(modulus: nBytes, exponent: eBytes)
/// let ok = key.isValidPKCS1v15Signature(signature, digest: SHA256.hash(signingInput), hash: .sha256)
/// ```
public struct RSAPublicKey: Sendable {
  /// Smallest accepted modulus size, in bits.
  public static let minimumModulusBitCount = 2048
  /// Largest accepted modulus size, in bits.
  public static let maximumModulusBitCount = 4096

  private let context: MontgomeryContext
  private let exponentLimbs: [UInt64]
  private let exponentBitCount: Int
  /// Length `k` of the modulus in bytes: the exact length of every signature.
  private let byteCount: Int

  /// Number of significant bits of the modulus `n` (2048 through 4096).
  public let modulusBitCount: Int

  /// Creates a key from the big-endian bytes of its modulus `n` and public exponent `e`.
  ///
  /// Leading zero bytes are ignored (JWK `n`, `e` and DER `INTEGER`s may carry them).
  ///
  /// - Throws: ``RSAKeyError/unsupportedModulusSize(bitCount:)`` unless `n` has 2048 through
  ///   4096 bits, ``RSAKeyError/evenModulus`` for an even `n`, and
  ///   ``RSAKeyError/invalidExponent`` unless `e` is odd, at least 3 and smaller than `n`.
  public init(modulus: [UInt8], exponent: [UInt8]) throws(RSAKeyError) {
    let n = Limbs.strippingLeadingZeros(modulus)
    let limbCount = (n.count + 7) / 8
    guard let nLimbs = Limbs.fromBigEndian(n, count: max(limbCount, 1)) else {
      throw .unsupportedModulusSize(bitCount: 0)
    }
    let bitCount = Limbs.bitCount(nLimbs)
    guard (Self.minimumModulusBitCount...Self.maximumModulusBitCount).contains(bitCount) else {
      throw .unsupportedModulusSize(bitCount: bitCount)
    }
    guard nLimbs[0] & 1 == 1 else { throw .evenModulus }

    let e = Limbs.strippingLeadingZeros(exponent)
    guard e.count <= n.count, let eLimbs = Limbs.fromBigEndian(e, count: limbCount) else {
      throw .invalidExponent
    }
    let eBitCount = Limbs.bitCount(eLimbs)
    guard eLimbs[0] & 1 == 1, eBitCount >= 2, Limbs.compare(eLimbs, nLimbs) < 0 else {
      throw .invalidExponent
    }

    self.context = MontgomeryContext(modulus: nLimbs)
    self.exponentLimbs = Array(eLimbs[0..<((eBitCount + 63) / 64)])
    self.exponentBitCount = eBitCount
    self.byteCount = n.count
    self.modulusBitCount = bitCount
  }

  /// The modulus `n`, big-endian, without leading zero bytes (a JWK's `n`).
  public var modulus: [UInt8] { SecretLimbs.bigEndianBytes(context.modulus, byteCount: byteCount) }

  /// The public exponent `e`, big-endian, without leading zero bytes (a JWK's `e`).
  public var exponent: [UInt8] {
    let bytes = SecretLimbs.bigEndianBytes(exponentLimbs, byteCount: 8 * exponentLimbs.count)
    return Array(Limbs.strippingLeadingZeros(bytes))
  }

  /// Returns whether `signature` is a valid RSASSA-PKCS1-v1_5 signature of `digest`.
  ///
  /// `digest` is the hash of the signed message (for JWS, of the ASCII signing input), computed
  /// with `hash`. The signature must be exactly as long as the modulus and smaller than it. The
  /// method recomputes the whole expected encoding
  /// `EM = 00 01 FF..FF 00 || DigestInfo || digest` and compares it with `s^e mod n` in constant
  /// time; it never parses the decrypted block, so every non-canonical encoding (missing `NULL`
  /// parameters, wrong padding, trailing data, …) is rejected.
  public func isValidPKCS1v15Signature(
    _ signature: [UInt8], digest: [UInt8], hash: RSAHashAlgorithm
  ) -> Bool {
    let k = byteCount
    guard signature.count == k, digest.count == hash.digestByteCount else { return false }
    let s = context.limbCount
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 5 * s) { buffer in
      guard let base = buffer.baseAddress else { return false }
      let sig = base
      let sigMont = base + s
      let x = base + 2 * s
      let scratch = base + 3 * s

      // Load the big-endian signature and require s < n.
      sig.update(repeating: 0, count: s)
      for index in 0..<k {
        sig[index >> 3] |= UInt64(signature[k - 1 - index]) << UInt64(8 * (index & 7))
      }
      let inRange = context.modulus.withUnsafeBufferPointer { n in
        Limbs.compare(UnsafeBufferPointer(start: sig, count: s), n) < 0
      }
      guard inRange else { return false }

      modularPower(sig, into: x, sigMont: sigMont, scratch: scratch)
      return encodedMessageMatches(x, digest: digest, hash: hash)
    }
  }

  /// `x = sig^e mod n` (normal, not Montgomery, form) by left-to-right square-and-multiply.
  ///
  /// Variable time (``MontgomeryContext``'s `multiplyVariableTime` and `squareVariableTime`):
  /// the signature, the exponent and the modulus are public. ``RSAPrivateKey`` also runs its
  /// freshly computed signature through here before releasing it; that value is the public
  /// output.
  ///
  /// `e` is odd, so its last step multiplies by `sig` outside the Montgomery domain, which leaves
  /// the domain for free. For `e = 65537` this is 16 squarings and 2 products.
  private func modularPower(
    _ sig: UnsafeMutablePointer<UInt64>, into x: UnsafeMutablePointer<UInt64>,
    sigMont: UnsafeMutablePointer<UInt64>, scratch: UnsafeMutablePointer<UInt64>
  ) {
    let s = context.limbCount
    context.modulus.withUnsafeBufferPointer { nBuffer in
      context.rSquared.withUnsafeBufferPointer { r2Buffer in
        exponentLimbs.withUnsafeBufferPointer { e in
          let n = nBuffer.baseAddress.unsafelyUnwrapped
          let r2 = r2Buffer.baseAddress.unsafelyUnwrapped
          let n0 = context.n0Inverse
          MontgomeryContext.multiplyVariableTime(
            sig, r2, into: sigMont, scratch: scratch, modulus: n, count: s, n0Inverse: n0)
          x.update(from: sigMont, count: s)
          var bit = exponentBitCount - 2
          while bit >= 1 {
            MontgomeryContext.squareVariableTime(
              x, into: x, scratch: scratch, modulus: n, count: s, n0Inverse: n0)
            if (e[bit >> 6] >> UInt64(bit & 63)) & 1 == 1 {
              MontgomeryContext.multiplyVariableTime(
                x, sigMont, into: x, scratch: scratch, modulus: n, count: s, n0Inverse: n0)
            }
            bit -= 1
          }
          MontgomeryContext.squareVariableTime(
            x, into: x, scratch: scratch, modulus: n, count: s, n0Inverse: n0)
          MontgomeryContext.multiplyVariableTime(
            x, sig, into: x, scratch: scratch, modulus: n, count: s, n0Inverse: n0)
        }
      }
    }
  }

  /// Constant-time comparison of the `k`-byte big-endian form of `x` with the expected `EM`.
  private func encodedMessageMatches(
    _ x: UnsafeMutablePointer<UInt64>, digest: [UInt8], hash: RSAHashAlgorithm
  ) -> Bool {
    let k = byteCount
    let prefix = hash.digestInfoPrefix
    let separator = k - prefix.count - digest.count - 1  // index of the 00 after the padding
    let digestStart = separator + 1 + prefix.count
    var difference: UInt8 = 0
    for index in 0..<k {
      let position = k - 1 - index
      let actual = UInt8(truncatingIfNeeded: x[position >> 3] >> UInt64(8 * (position & 7)))
      let expected: UInt8
      if index == 0 || index == separator {
        expected = 0x00
      } else if index == 1 {
        expected = 0x01
      } else if index < separator {
        expected = 0xFF
      } else if index < digestStart {
        expected = prefix[index - separator - 1]
      } else {
        expected = digest[index - digestStart]
      }
      difference |= actual ^ expected
    }
    return difference == 0
  }
}
