/// The ChaCha20 stream cipher (RFC 8439 §2.1-2.4): a 256-bit key, a 96-bit nonce and a 32-bit
/// block counter.
///
/// Only additions, XORs and fixed rotations touch the key, so its running time depends on the
/// length of the data alone. The key and nonce live in stored words (no arrays), and four
/// blocks at a time go through SIMD lanes, so a keystream costs no allocation.
struct ChaCha20 {
  // "expand 32-byte k", little-endian words.
  static let constant0: UInt32 = 0x6170_7865
  static let constant1: UInt32 = 0x3320_646e
  static let constant2: UInt32 = 0x7962_2d32
  static let constant3: UInt32 = 0x6b20_6574

  private let k0, k1, k2, k3, k4, k5, k6, k7: UInt32
  private let n0, n1, n2: UInt32

  /// Key words `key[0..<32]` and nonce words `nonce[0..<12]`, little-endian. The caller checks
  /// both sizes.
  init(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer) {
    k0 = key.littleEndianWord(at: 0)
    k1 = key.littleEndianWord(at: 4)
    k2 = key.littleEndianWord(at: 8)
    k3 = key.littleEndianWord(at: 12)
    k4 = key.littleEndianWord(at: 16)
    k5 = key.littleEndianWord(at: 20)
    k6 = key.littleEndianWord(at: 24)
    k7 = key.littleEndianWord(at: 28)
    n0 = nonce.littleEndianWord(at: 0)
    n1 = nonce.littleEndianWord(at: 4)
    n2 = nonce.littleEndianWord(at: 8)
  }

  /// A cipher from key words already in memory order (HChaCha20's output, for XChaCha20).
  init(
    keyWords k: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
    nonceWords n: (UInt32, UInt32, UInt32)
  ) {
    (k0, k1, k2, k3, k4, k5, k6, k7) = k
    (n0, n1, n2) = n
  }

  /// RFC 8439 §2.1: the quarter round on four state words.
  @inline(__always)
  static func quarterRound(
    _ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32
  ) {
    a &+= b
    d ^= a
    d = d.rotatedLeft(16)
    c &+= d
    b ^= c
    b = b.rotatedLeft(12)
    a &+= b
    d ^= a
    d = d.rotatedLeft(8)
    c &+= d
    b ^= c
    b = b.rotatedLeft(7)
  }

  /// The same quarter round on four independent blocks, one per lane. `m` is all ones (see
  /// ``vectorRotationMask``).
  @inline(__always)
  static func quarterRound(
    _ a: inout SIMD4<UInt32>, _ b: inout SIMD4<UInt32>, _ c: inout SIMD4<UInt32>,
    _ d: inout SIMD4<UInt32>, _ m: SIMD4<UInt32>
  ) {
    a &+= b
    d ^= a
    d = rotatedBy16(d)
    c &+= d
    b ^= c
    b = (b &<< 12) | (b &>> 20 & m)
    a &+= b
    d ^= a
    d = (d &<< 8) | (d &>> 24 & m)
    c &+= d
    b ^= c
    b = (b &<< 7) | (b &>> 25 & m)
  }

  /// Each lane rotated by 16 bits: its two halves swapped, one SSE2 shuffle per half.
  @inline(__always)
  private static func rotatedBy16(_ v: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let h = unsafeBitCast(v, to: SIMD8<UInt16>.self)
    return unsafeBitCast(
      SIMD8(h[1], h[0], h[3], h[2], h[5], h[4], h[7], h[6]), to: SIMD4<UInt32>.self)
  }

  /// RFC 8439 §2.3: keystream block number `counter`; its bytes in memory order are the
  /// 64 keystream bytes (words already little-endian), so `withUnsafeBytes(of:)` reads them.
  func block(counter: UInt32) -> SIMD16<UInt32> {
    var state = startBlock(counter: counter)
    for _ in 0..<10 {
      state.doubleRound()
    }
    return finishBlock(state, counter: counter)
  }

  /// One block's working state between double rounds, so that its rounds can be interleaved
  /// with other work: the AEAD computes Poly1305's key block on the scalar units while the
  /// vector units run the first four data blocks.
  struct BlockRounds {
    var x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15: UInt32

    /// A column round and a diagonal round (RFC 8439 §2.3).
    @inline(__always)
    mutating func doubleRound() {
      ChaCha20.quarterRound(&x0, &x4, &x8, &x12)
      ChaCha20.quarterRound(&x1, &x5, &x9, &x13)
      ChaCha20.quarterRound(&x2, &x6, &x10, &x14)
      ChaCha20.quarterRound(&x3, &x7, &x11, &x15)
      ChaCha20.quarterRound(&x0, &x5, &x10, &x15)
      ChaCha20.quarterRound(&x1, &x6, &x11, &x12)
      ChaCha20.quarterRound(&x2, &x7, &x8, &x13)
      ChaCha20.quarterRound(&x3, &x4, &x9, &x14)
    }
  }

  /// The initial state of block `counter`.
  @inline(__always)
  func startBlock(counter: UInt32) -> BlockRounds {
    BlockRounds(
      x0: Self.constant0, x1: Self.constant1, x2: Self.constant2, x3: Self.constant3, x4: k0,
      x5: k1, x6: k2, x7: k3, x8: k4, x9: k5, x10: k6, x11: k7, x12: counter, x13: n0,
      x14: n1, x15: n2)
  }

  /// The keystream block from `state` after its ten double rounds (the input added back).
  @inline(__always)
  func finishBlock(_ state: BlockRounds, counter: UInt32) -> SIMD16<UInt32> {
    SIMD16(
      (state.x0 &+ Self.constant0).littleEndian, (state.x1 &+ Self.constant1).littleEndian,
      (state.x2 &+ Self.constant2).littleEndian, (state.x3 &+ Self.constant3).littleEndian,
      (state.x4 &+ k0).littleEndian, (state.x5 &+ k1).littleEndian,
      (state.x6 &+ k2).littleEndian, (state.x7 &+ k3).littleEndian,
      (state.x8 &+ k4).littleEndian, (state.x9 &+ k5).littleEndian,
      (state.x10 &+ k6).littleEndian, (state.x11 &+ k7).littleEndian,
      (state.x12 &+ counter).littleEndian, (state.x13 &+ n0).littleEndian,
      (state.x14 &+ n1).littleEndian, (state.x15 &+ n2).littleEndian)
  }

  /// RFC 8439 §2.4: `output = input XOR keystream`, the keystream starting at block `counter`.
  ///
  /// `output` must hold at least `input.count` bytes; the two may be the same memory. The
  /// caller keeps `counter + blocks` within 32 bits (RFC 8439 limits a message to 2^32 blocks).
  func xor(
    _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, counter: UInt32
  ) {
    guard let source = input.baseAddress else { return }
    var offset = 0
    var counter = counter
    let count = input.count
    while count - offset >= 256 {
      fourBlocks(counter: counter, source: source + offset, destination: output + offset) { _ in }
      offset += 256
      counter &+= 4
    }
    while offset < count {
      var stream = block(counter: counter)
      let length = min(64, count - offset)
      withUnsafeBytes(of: &stream) { stream in
        if length == 64 {
          for word in stride(from: 0, to: 64, by: 8) {
            let value =
              source.loadUnaligned(fromByteOffset: offset + word, as: UInt64.self)
              ^ stream.loadUnaligned(fromByteOffset: word, as: UInt64.self)
            output.storeBytes(of: value, toByteOffset: offset + word, as: UInt64.self)
          }
        } else {
          for index in 0..<length {
            let value = source.load(fromByteOffset: offset + index, as: UInt8.self) ^ stream[index]
            output.storeBytes(of: value, toByteOffset: offset + index, as: UInt8.self)
          }
        }
      }
      offset += length
      counter &+= 1
    }
  }

  /// Writes the keystream from block `counter` on to `output` (`count` bytes), for the
  /// AEAD's open, which must not produce plaintext before the tag is checked.
  func keystream(into output: UnsafeMutableRawPointer, count: Int, counter: UInt32) {
    var offset = 0
    var counter = counter
    while offset < count {
      var stream = block(counter: counter)
      let length = min(64, count - offset)
      withUnsafeBytes(of: &stream) { stream in
        UnsafeMutableRawBufferPointer(start: output + offset, count: length).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: stream[0..<length]))
      }
      offset += length
      counter &+= 1
    }
  }

  /// Four consecutive blocks at once, block `counter + lane` in each SIMD lane, XORed from
  /// `source` into `destination` (256 bytes each), or stored as they are when `source` is
  /// `nil`.
  ///
  /// `perRound` runs at the start of each of the 10 double rounds with its index: the AEAD
  /// feeds Poly1305 blocks there, so the scalar multiplications run while the vector units
  /// work on ChaCha20 (out-of-order execution overlaps them only when they are interleaved).
  @inline(__always)
  func fourBlocks(
    counter: UInt32, source: UnsafeRawPointer?, destination: UnsafeMutableRawPointer,
    perRound: (Int) -> Void
  ) {
    let i0 = SIMD4(repeating: Self.constant0)
    let i1 = SIMD4(repeating: Self.constant1)
    let i2 = SIMD4(repeating: Self.constant2)
    let i3 = SIMD4(repeating: Self.constant3)
    let i4 = SIMD4(repeating: k0)
    let i5 = SIMD4(repeating: k1)
    let i6 = SIMD4(repeating: k2)
    let i7 = SIMD4(repeating: k3)
    let i8 = SIMD4(repeating: k4)
    let i9 = SIMD4(repeating: k5)
    let i10 = SIMD4(repeating: k6)
    let i11 = SIMD4(repeating: k7)
    let i12 = SIMD4(repeating: counter) &+ SIMD4(0, 1, 2, 3)
    let i13 = SIMD4(repeating: n0)
    let i14 = SIMD4(repeating: n1)
    let i15 = SIMD4(repeating: n2)
    var x0 = i0
    var x1 = i1
    var x2 = i2
    var x3 = i3
    var x4 = i4
    var x5 = i5
    var x6 = i6
    var x7 = i7
    var x8 = i8
    var x9 = i9
    var x10 = i10
    var x11 = i11
    var x12 = i12
    var x13 = i13
    var x14 = i14
    var x15 = i15
    let r = vectorRotationMask
    for round in 0..<10 {
      perRound(round)
      Self.quarterRound(&x0, &x4, &x8, &x12, r)
      Self.quarterRound(&x1, &x5, &x9, &x13, r)
      Self.quarterRound(&x2, &x6, &x10, &x14, r)
      Self.quarterRound(&x3, &x7, &x11, &x15, r)
      Self.quarterRound(&x0, &x5, &x10, &x15, r)
      Self.quarterRound(&x1, &x6, &x11, &x12, r)
      Self.quarterRound(&x2, &x7, &x8, &x13, r)
      Self.quarterRound(&x3, &x4, &x9, &x14, r)
    }
    x0 &+= i0
    x1 &+= i1
    x2 &+= i2
    x3 &+= i3
    x4 &+= i4
    x5 &+= i5
    x6 &+= i6
    x7 &+= i7
    x8 &+= i8
    x9 &+= i9
    x10 &+= i10
    x11 &+= i11
    x12 &+= i12
    x13 &+= i13
    x14 &+= i14
    x15 &+= i15
    // Transpose: lane `b` of word `w` is word `w` of block `b`.
    for lane in 0..<4 {
      let base = lane * 64
      Self.xorRow(SIMD4(x0[lane], x1[lane], x2[lane], x3[lane]), source, destination, base)
      Self.xorRow(SIMD4(x4[lane], x5[lane], x6[lane], x7[lane]), source, destination, base + 16)
      Self.xorRow(
        SIMD4(x8[lane], x9[lane], x10[lane], x11[lane]), source, destination, base + 32)
      Self.xorRow(
        SIMD4(x12[lane], x13[lane], x14[lane], x15[lane]), source, destination, base + 48)
    }
  }

  /// XORs four keystream words into 16 bytes at `offset` (stores them without `source`).
  @inline(__always)
  private static func xorRow(
    _ words: SIMD4<UInt32>, _ source: UnsafeRawPointer?, _ destination: UnsafeMutableRawPointer,
    _ offset: Int
  ) {
    #if _endian(little)
      let input =
        source?.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self) ?? SIMD4()
      destination.storeBytes(of: input ^ words, toByteOffset: offset, as: SIMD4<UInt32>.self)
    #else
      for index in 0..<4 {
        let at = offset + 4 * index
        let input = source?.loadUnaligned(fromByteOffset: at, as: UInt32.self) ?? 0
        destination.storeBytes(
          of: input ^ words[index].littleEndian, toByteOffset: at, as: UInt32.self)
      }
    #endif
  }

  /// draft-irtf-cfrg-xchacha §2.2: HChaCha20, the 256-bit subkey for a 128-bit nonce prefix:
  /// words 0-3 and 12-15 of the permuted state, without the final addition.
  static func hChaCha20(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer) -> (
    UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
  ) {
    var x0 = constant0
    var x1 = constant1
    var x2 = constant2
    var x3 = constant3
    var x4 = key.littleEndianWord(at: 0)
    var x5 = key.littleEndianWord(at: 4)
    var x6 = key.littleEndianWord(at: 8)
    var x7 = key.littleEndianWord(at: 12)
    var x8 = key.littleEndianWord(at: 16)
    var x9 = key.littleEndianWord(at: 20)
    var x10 = key.littleEndianWord(at: 24)
    var x11 = key.littleEndianWord(at: 28)
    var x12 = nonce.littleEndianWord(at: 0)
    var x13 = nonce.littleEndianWord(at: 4)
    var x14 = nonce.littleEndianWord(at: 8)
    var x15 = nonce.littleEndianWord(at: 12)
    for _ in 0..<10 {
      quarterRound(&x0, &x4, &x8, &x12)
      quarterRound(&x1, &x5, &x9, &x13)
      quarterRound(&x2, &x6, &x10, &x14)
      quarterRound(&x3, &x7, &x11, &x15)
      quarterRound(&x0, &x5, &x10, &x15)
      quarterRound(&x1, &x6, &x11, &x12)
      quarterRound(&x2, &x7, &x8, &x13)
      quarterRound(&x3, &x4, &x9, &x14)
    }
    return (x0, x1, x2, x3, x12, x13, x14, x15)
  }
}

/// All ones, ANDed into the vector rotations and read at run time on purpose.
///
/// Written plainly, `(x &<< 12) | (x &>> 20)` becomes a lane-wise rotate, which x86-64's
/// baseline (SSE2) lacks: the optimizer then moves every lane to a general register and back,
/// several times slower than scalar code. A mask it cannot see through keeps two immediate
/// shifts, an AND and an OR. Never written after initialization, so sharing it is safe.
nonisolated(unsafe) var vectorRotationMask = SIMD4<UInt32>(repeating: .max)

extension UInt32 {
  /// A left rotation by a constant count (1...31), which compiles to one `rol`.
  @inline(__always)
  func rotatedLeft(_ count: UInt32) -> UInt32 {
    (self &<< count) | (self &>> (32 &- count))
  }
}

extension UnsafeRawBufferPointer {
  /// The little-endian word at `offset`, at any alignment. The caller checks the bounds.
  @inline(__always)
  func littleEndianWord(at offset: Int) -> UInt32 {
    UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }
}
