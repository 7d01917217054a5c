/// RFC 8439 §2.8's AEAD construction over a keyed ``ChaCha20``, shared by
/// ``ChaCha20Poly1305`` and ``XChaCha20Poly1305``: block 0 keys Poly1305, blocks 1... encrypt,
/// and the tag covers `aad ‖ pad16 ‖ ciphertext ‖ pad16 ‖ len(aad) ‖ len(ciphertext)`.
enum AEADConstruction {
  /// The most plaintext one nonce can encrypt: 2^32 - 1 blocks after the Poly1305 key block.
  static let maximumPlaintextCount = Int(truncatingIfNeeded: (UInt64(1) << 32 - 1) * 64)

  static func seal(_ plaintext: [UInt8], associatedData: [UInt8], cipher: ChaCha20) -> [UInt8] {
    // Encrypting more would reuse keystream: a caller bug, not a property of received data.
    precondition(
      plaintext.count <= maximumPlaintextCount, "ChaCha20-Poly1305 plaintext exceeds 256 GiB")
    var mac = poly1305(cipher)
    let count = plaintext.count
    return [UInt8](unsafeUninitializedCapacity: count + 16) { output, initializedCount in
      initializedCount = 0
      guard let base = output.baseAddress else { return }
      plaintext.withUnsafeBytes { plaintext in
        cipher.xor(plaintext, into: base, counter: 1)
      }
      associatedData.withUnsafeBytes { mac.updateZeroPadded($0) }
      mac.updateZeroPadded(UnsafeRawBufferPointer(start: base, count: count))
      mac.updateLengths(associatedData.count, count)
      let (low, high) = mac.finalize()
      let tag = UnsafeMutableRawPointer(base + count)
      tag.storeBytes(of: low.littleEndian, toByteOffset: 0, as: UInt64.self)
      tag.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
      initializedCount = count + 16
    }
  }

  static func open(
    _ sealed: [UInt8], associatedData: [UInt8], cipher: ChaCha20
  ) throws(AEADError) -> [UInt8] {
    let count = sealed.count - 16
    guard count >= 0, count <= maximumPlaintextCount else {
      throw AEADError(.authenticationFailed)
    }
    var mac = poly1305(cipher)
    associatedData.withUnsafeBytes { mac.updateZeroPadded($0) }
    let authentic = sealed.withUnsafeBytes { sealed in
      mac.updateZeroPadded(UnsafeRawBufferPointer(rebasing: sealed[..<count]))
      mac.updateLengths(associatedData.count, count)
      var expected = mac.finalize()
      expected.0 = expected.0.littleEndian
      expected.1 = expected.1.littleEndian
      return withUnsafeBytes(of: &expected) { expected in
        ConstantTime.equals(expected, UnsafeRawBufferPointer(rebasing: sealed[count...]))
      }
    }
    guard authentic else { throw AEADError(.authenticationFailed) }
    return [UInt8](unsafeUninitializedCapacity: count) { output, initializedCount in
      initializedCount = 0
      guard let base = output.baseAddress else { return }
      sealed.withUnsafeBytes { sealed in
        cipher.xor(UnsafeRawBufferPointer(rebasing: sealed[..<count]), into: base, counter: 1)
      }
      initializedCount = count
    }
  }

  /// Poly1305 keyed with the first 32 bytes of keystream block 0.
  private static func poly1305(_ cipher: ChaCha20) -> Poly1305 {
    var block = cipher.block(counter: 0)
    let mac = withUnsafeBytes(of: &block) { Poly1305(key: $0) }
    block = SIMD16()
    return mac
  }
}
