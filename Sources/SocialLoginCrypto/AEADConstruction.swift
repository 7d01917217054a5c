/// RFC 8439 §2.8's AEAD construction over a keyed ``ChaCha20``, shared by
/// ``ChaCha20Poly1305`` and ``XChaCha20Poly1305``: block 0 keys Poly1305, blocks 1... encrypt,
/// and the tag covers `aad ‖ pad16 ‖ ciphertext ‖ pad16 ‖ len(aad) ‖ len(ciphertext)`.
///
/// Both directions are "stitched": scalar work runs inside the rounds of each four-block
/// (256-byte) vector ChaCha20 step, so the scalar units and the vector units work at the same
/// time. The first step computes Poly1305's key block (block 0) beside it; each later step
/// absorbs the ciphertext not yet authenticated: sealing, the chunk encrypted one step
/// earlier; opening, the ciphertext up to the end of the chunk whose keystream it computes.
/// Opening writes only keystream and XORs the ciphertext in once the tag has matched.
enum AEADConstruction {
  /// The most plaintext one nonce can encrypt: 2^32 - 1 blocks after the Poly1305 key block.
  static let maximumPlaintextCount = Int(truncatingIfNeeded: (UInt64(1) << 32 - 1) * 64)

  static func seal(_ plaintext: [UInt8], associatedData: [UInt8], cipher: ChaCha20) -> [UInt8] {
    // Encrypting more would reuse keystream: a caller bug, not a property of received data.
    precondition(
      plaintext.count <= maximumPlaintextCount, "ChaCha20-Poly1305 plaintext exceeds 256 GiB")
    let count = plaintext.count
    return [UInt8](unsafeUninitializedCapacity: count + 16) { output, initializedCount in
      initializedCount = 0
      guard let base = output.baseAddress else { return }
      let out = UnsafeMutableRawPointer(base)
      let tag = plaintext.withUnsafeBytes { plaintext in
        var offset = 0
        var mac: Poly1305
        if let source = plaintext.baseAddress, count >= 256 {
          var keyBlock = cipher.startBlock(counter: 0)
          cipher.fourBlocks(counter: 1, source: source, destination: out) { _ in
            keyBlock.doubleRound()
          }
          mac = poly1305(cipher.finishBlock(keyBlock, counter: 0))
          offset = 256
        } else {
          mac = poly1305(cipher.block(counter: 0))
        }
        associatedData.withUnsafeBytes { mac.updateZeroPadded($0) }
        if let source = plaintext.baseAddress {
          while count - offset >= 256 {
            let previous = UnsafeRawPointer(out + offset - 256)
            cipher.fourBlocks(
              counter: counter(offset), source: source + offset, destination: out + offset
            ) { round in
              if round < 8 { mac.absorbTwoBlocks(at: previous + 32 * round) }
            }
            offset += 256
          }
          cipher.xor(
            UnsafeRawBufferPointer(rebasing: plaintext[offset...]), into: out + offset,
            counter: counter(offset))
        }
        let absorbed = max(0, offset - 256)
        mac.updateZeroPadded(UnsafeRawBufferPointer(start: out + absorbed, count: count - absorbed))
        mac.updateLengths(associatedData.count, count)
        return mac.finalize()
      }
      out.storeBytes(of: tag.0.littleEndian, toByteOffset: count, as: UInt64.self)
      out.storeBytes(of: tag.1.littleEndian, toByteOffset: count + 8, as: UInt64.self)
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
    var authentic = false
    let plaintext = [UInt8](unsafeUninitializedCapacity: count) { output, initializedCount in
      initializedCount = 0
      sealed.withUnsafeBytes { sealed in
        guard let source = sealed.baseAddress else { return }
        // Keystream only: no plaintext exists until the tag has matched.
        var offset = 0
        var absorbed = 0
        var mac: Poly1305
        if let base = output.baseAddress, count >= 256 {
          var keyBlock = cipher.startBlock(counter: 0)
          cipher.fourBlocks(counter: 1, source: nil, destination: UnsafeMutableRawPointer(base)) {
            _ in keyBlock.doubleRound()
          }
          mac = poly1305(cipher.finishBlock(keyBlock, counter: 0))
          offset = 256
        } else {
          mac = poly1305(cipher.block(counter: 0))
        }
        associatedData.withUnsafeBytes { mac.updateZeroPadded($0) }
        if let base = output.baseAddress {
          let out = UnsafeMutableRawPointer(base)
          while count - offset >= 256 {
            // 256 or 512 bytes (the first step's chunk too) in 8 of the 10 double rounds.
            let pending = source + absorbed
            let perRound = (offset + 256 - absorbed) / 8
            cipher.fourBlocks(counter: counter(offset), source: nil, destination: out + offset) {
              round in
              if round < 8 {
                mac.absorbTwoBlocks(at: pending + perRound * round)
                if perRound == 64 { mac.absorbTwoBlocks(at: pending + perRound * round + 32) }
              }
            }
            offset += 256
            absorbed = offset
          }
          cipher.keystream(into: out + offset, count: count - offset, counter: counter(offset))
        }
        mac.updateZeroPadded(
          UnsafeRawBufferPointer(start: source + absorbed, count: count - absorbed))
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

  /// The block counter of the data at byte `offset` (block 0 keys Poly1305).
  @inline(__always)
  private static func counter(_ offset: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: offset / 64 + 1)
  }

  /// `destination[i] ^= source[i]` for `count` bytes, sixteen at a time.
  private static func xorInPlace(
    _ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, count: Int
  ) {
    var index = 0
    while count - index >= 16 {
      let value =
        destination.loadUnaligned(fromByteOffset: index, as: SIMD2<UInt64>.self)
        ^ source.loadUnaligned(fromByteOffset: index, as: SIMD2<UInt64>.self)
      destination.storeBytes(of: value, toByteOffset: index, as: SIMD2<UInt64>.self)
      index += 16
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
  private static func poly1305(_ block: SIMD16<UInt32>) -> Poly1305 {
    var block = block
    let mac = withUnsafeBytes(of: &block) { Poly1305(key: $0) }
    block = SIMD16()
    return mac
  }
}
