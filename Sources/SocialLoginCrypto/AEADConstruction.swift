/// RFC 8439 §2.8's AEAD construction over a keyed ``ChaCha20``, shared by
/// ``ChaCha20Poly1305`` and ``XChaCha20Poly1305``: block 0 keys Poly1305, blocks 1... encrypt,
/// and the tag covers `aad ‖ pad16 ‖ ciphertext ‖ pad16 ‖ len(aad) ‖ len(ciphertext)`.
///
/// Both directions are "stitched": Poly1305 absorbs 256 bytes of ciphertext inside the
/// rounds of each four-block ChaCha20 step, so the scalar multiplier and the vector units work
/// at the same time. Sealing authenticates the chunk encrypted one step earlier; opening
/// authenticates the chunk whose keystream it is computing, writes only keystream, and XORs
/// the ciphertext in once the tag has matched.
enum AEADConstruction {
  /// The most plaintext one nonce can encrypt: 2^32 - 1 blocks after the Poly1305 key block.
  static let maximumPlaintextCount = Int(truncatingIfNeeded: (UInt64(1) << 32 - 1) * 64)

  static func seal(_ plaintext: [UInt8], associatedData: [UInt8], cipher: ChaCha20) -> [UInt8] {
    // Encrypting more would reuse keystream: a caller bug, not a property of received data.
    precondition(
      plaintext.count <= maximumPlaintextCount, "ChaCha20-Poly1305 plaintext exceeds 256 GiB")
    var mac = poly1305(cipher)
    associatedData.withUnsafeBytes { mac.updateZeroPadded($0) }
    let count = plaintext.count
    return [UInt8](unsafeUninitializedCapacity: count + 16) { output, initializedCount in
      initializedCount = 0
      guard let base = output.baseAddress else { return }
      let out = UnsafeMutableRawPointer(base)
      plaintext.withUnsafeBytes { plaintext in
        guard let source = plaintext.baseAddress else { return }
        var offset = 0
        var counter: UInt32 = 1
        while count - offset >= 256 {
          if offset == 0 {
            cipher.fourBlocks(counter: counter, source: source, destination: out) { _ in }
          } else {
            let previous = UnsafeRawPointer(out + offset - 256)
            cipher.fourBlocks(
              counter: counter, source: source + offset, destination: out + offset
            ) { round in
              if round < 8 {
                mac.absorbTwoBlocks(at: previous + 32 * round)
              }
            }
          }
          offset += 256
          counter &+= 4
        }
        cipher.xor(
          UnsafeRawBufferPointer(rebasing: plaintext[offset...]), into: out + offset,
          counter: counter)
        let absorbed = max(0, offset - 256)
        mac.updateZeroPadded(UnsafeRawBufferPointer(start: out + absorbed, count: count - absorbed))
      }
      mac.updateLengths(associatedData.count, count)
      let (low, high) = mac.finalize()
      out.storeBytes(of: low.littleEndian, toByteOffset: count, as: UInt64.self)
      out.storeBytes(of: high.littleEndian, toByteOffset: count + 8, as: UInt64.self)
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
    var authentic = false
    let plaintext = [UInt8](unsafeUninitializedCapacity: count) { output, initializedCount in
      initializedCount = 0
      sealed.withUnsafeBytes { sealed in
        guard let source = sealed.baseAddress else { return }
        // Keystream only: no plaintext exists until the tag has matched.
        var offset = 0
        if let base = output.baseAddress {
          let out = UnsafeMutableRawPointer(base)
          var counter: UInt32 = 1
          while count - offset >= 256 {
            let chunk = source + offset
            cipher.fourBlocks(counter: counter, source: nil, destination: out + offset) { round in
              if round < 8 {
                mac.absorbTwoBlocks(at: chunk + 32 * round)
              }
            }
            offset += 256
            counter &+= 4
          }
          cipher.keystream(into: out + offset, count: count - offset, counter: counter)
        }
        mac.updateZeroPadded(UnsafeRawBufferPointer(start: source + offset, count: count - offset))
        mac.updateLengths(associatedData.count, count)
        var expected = mac.finalize()
        expected.0 = expected.0.littleEndian
        expected.1 = expected.1.littleEndian
        authentic = withUnsafeBytes(of: &expected) { expected in
          ConstantTime.equals(expected, UnsafeRawBufferPointer(rebasing: sealed[count...]))
        }
        guard let base = output.baseAddress else { return }
        let out = UnsafeMutableRawPointer(base)
        guard authentic else {
          // Keystream is key material too: leave none of it behind.
          out.initializeMemory(as: UInt8.self, repeating: 0, count: count)
          return
        }
        xorInPlace(out, source, count: count)
        initializedCount = count
      }
    }
    guard authentic else { throw AEADError(.authenticationFailed) }
    return plaintext
  }

  /// `destination[i] ^= source[i]` for `count` bytes, eight at a time.
  private static func xorInPlace(
    _ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, count: Int
  ) {
    var index = 0
    while count - index >= 8 {
      let value =
        destination.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        ^ source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      destination.storeBytes(of: value, toByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < count {
      let value =
        destination.load(fromByteOffset: index, as: UInt8.self)
        ^ source.load(fromByteOffset: index, as: UInt8.self)
      destination.storeBytes(of: value, toByteOffset: index, as: UInt8.self)
      index += 1
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
