/// The Poly1305 one-time authenticator (RFC 8439 §2.5), with the accumulator in three limbs of
/// 44, 44 and 42 bits ("poly1305-donna-64").
///
/// Each block costs nine 64×64→128-bit multiplications and no branch or table lookup that
/// depends on the key or the message, so timing reveals only the message length. Pairs of
/// blocks are absorbed as `h = (h + m1)·r² + m2·r`, which halves the serial dependency on `h`
/// (the `m2·r` products do not wait for it). The state is a handful of stored words:
/// authenticating allocates nothing.
struct Poly1305 {
  private static let mask44: UInt64 = 0xfff_ffff_ffff
  private static let mask42: UInt64 = 0x3ff_ffff_ffff

  // r (clamped) in limbs, and 20·r1, 20·r2 for the reduction modulo 2^130 - 5.
  private let r0, r1, r2: UInt64
  private let s1, s2: UInt64
  // r² mod 2^130 - 5 (partially reduced limbs) and 20·q1, 20·q2.
  private let q0, q1, q2: UInt64
  private let t1, t2: UInt64
  // s, the second half of the one-time key.
  private let pad0, pad1: UInt64
  private var h0: UInt64 = 0
  private var h1: UInt64 = 0
  private var h2: UInt64 = 0

  /// An authenticator keyed with the 32 bytes at `key` (r, then s). The caller checks the size.
  init(key: UnsafeRawBufferPointer) {
    let t0 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
    let t1 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    // Clamping (RFC 8439 §2.5.1) folded into the limb split.
    r0 = t0 & 0xffc_0fff_ffff
    r1 = ((t0 >> 44) | (t1 << 20)) & 0xfff_ffc0_ffff
    r2 = (t1 >> 24) & 0x00f_ffff_fc0f
    s1 = r1 &* (5 << 2)
    s2 = r2 &* (5 << 2)
    (q0, q1, q2) = Self.reduce(
      Self.product(r0, r0) &+ Self.product(r1, s2) &+ Self.product(r2, s1),
      Self.product(r0, r1) &+ Self.product(r1, r0) &+ Self.product(r2, s2),
      Self.product(r0, r2) &+ Self.product(r1, r1) &+ Self.product(r2, r0))
    self.t1 = q1 &* (5 << 2)
    self.t2 = q2 &* (5 << 2)
    pad0 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
    pad1 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
  }

  /// Absorbs one 16-byte block given as two little-endian words; `highBit` is 2^128's bit in
  /// limb 2 (1 << 40) for a whole block, 0 for a final block already padded with its `0x01`.
  @inline(__always)
  private mutating func block(_ t0: UInt64, _ t1: UInt64, highBit: UInt64) {
    let h0 = self.h0 &+ (t0 & Self.mask44)
    let h1 = self.h1 &+ (((t0 >> 44) | (t1 << 20)) & Self.mask44)
    let h2 = self.h2 &+ (((t1 >> 24) & Self.mask42) | highBit)
    (self.h0, self.h1, self.h2) = Self.reduce(
      Self.product(h0, r0) &+ Self.product(h1, s2) &+ Self.product(h2, s1),
      Self.product(h0, r1) &+ Self.product(h1, r0) &+ Self.product(h2, s2),
      Self.product(h0, r2) &+ Self.product(h1, r1) &+ Self.product(h2, r0))
  }

  /// Absorbs two whole blocks (`a` then `b`, each as two little-endian words):
  /// `h = (h + a)·r² + b·r`.
  @inline(__always)
  private mutating func twoBlocks(_ a0: UInt64, _ a1: UInt64, _ b0: UInt64, _ b1: UInt64) {
    let h0 = self.h0 &+ (a0 & Self.mask44)
    let h1 = self.h1 &+ (((a0 >> 44) | (a1 << 20)) & Self.mask44)
    let h2 = self.h2 &+ (((a1 >> 24) & Self.mask42) | 1 << 40)
    let m0 = b0 & Self.mask44
    let m1 = ((b0 >> 44) | (b1 << 20)) & Self.mask44
    let m2 = ((b1 >> 24) & Self.mask42) | 1 << 40
    (self.h0, self.h1, self.h2) = Self.reduce(
      Self.product(h0, q0) &+ Self.product(h1, t2) &+ Self.product(h2, t1)
        &+ Self.product(m0, r0) &+ Self.product(m1, s2) &+ Self.product(m2, s1),
      Self.product(h0, q1) &+ Self.product(h1, q0) &+ Self.product(h2, t2)
        &+ Self.product(m0, r1) &+ Self.product(m1, r0) &+ Self.product(m2, s2),
      Self.product(h0, q2) &+ Self.product(h1, q1) &+ Self.product(h2, q0)
        &+ Self.product(m0, r2) &+ Self.product(m1, r1) &+ Self.product(m2, r0))
  }

  /// Carries the three product sums back into 44/44/42-bit limbs (the top limb's overflow
  /// wraps around times 5, since 2^130 ≡ 5); the middle limb may keep a few extra bits.
  @inline(__always)
  private static func reduce(_ d0: UInt128, _ d1: UInt128, _ d2: UInt128) -> (
    UInt64, UInt64, UInt64
  ) {
    var carry = UInt64(truncatingIfNeeded: d0 >> 44)
    var h0 = UInt64(truncatingIfNeeded: d0) & mask44
    let d1 = d1 &+ UInt128(carry)
    carry = UInt64(truncatingIfNeeded: d1 >> 44)
    var h1 = UInt64(truncatingIfNeeded: d1) & mask44
    let d2 = d2 &+ UInt128(carry)
    carry = UInt64(truncatingIfNeeded: d2 >> 42)
    let h2 = UInt64(truncatingIfNeeded: d2) & mask42
    h0 &+= carry &* 5
    carry = h0 >> 44
    h0 &= mask44
    h1 &+= carry
    return (h0, h1, h2)
  }

  /// Absorbs the two whole 16-byte blocks at `pointer` (any alignment).
  @inline(__always)
  mutating func absorbTwoBlocks(at pointer: UnsafeRawPointer) {
    twoBlocks(
      UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
      UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
      UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
      UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
  }

  @inline(__always)
  private static func product(_ a: UInt64, _ b: UInt64) -> UInt128 {
    UInt128(a) &* UInt128(b)
  }

  /// Absorbs `bytes` as AEAD input (RFC 8439 §2.8): whole blocks, then a last partial block
  /// padded with zeros to 16 bytes, which counts as a whole block.
  mutating func updateZeroPadded(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    var offset = 0
    while count - offset >= 32 {
      absorbTwoBlocks(at: base + offset)
      offset += 32
    }
    while count - offset >= 16 {
      block(
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)),
        highBit: 1 << 40)
      offset += 16
    }
    if offset < count {
      let (t0, t1) = Self.partialWords(base + offset, count: count - offset)
      block(t0, t1, highBit: 1 << 40)
    }
  }

  /// Absorbs the AEAD length block: the two byte counts, little-endian 64-bit.
  mutating func updateLengths(_ first: Int, _ second: Int) {
    block(UInt64(first), UInt64(second), highBit: 1 << 40)
  }

  /// Absorbs a whole message the generic way (RFC 8439 §2.5): a last partial block gets a
  /// `0x01` byte after it instead of the 2^128 bit.
  mutating func updateMessage(_ bytes: UnsafeRawBufferPointer) {
    let whole = bytes.count & ~15
    updateZeroPadded(UnsafeRawBufferPointer(rebasing: bytes[..<whole]))
    let rest = bytes.count - whole
    guard rest > 0, let base = bytes.baseAddress else { return }
    var (t0, t1) = Self.partialWords(base + whole, count: rest)
    if rest < 8 {
      t0 |= 1 << (8 * UInt64(rest))
    } else if rest == 8 {
      t1 |= 1
    } else {
      t1 |= 1 << (8 * UInt64(rest - 8))
    }
    block(t0, t1, highBit: 0)
  }

  /// The `count` (< 16) bytes at `base` as two little-endian words, zero-padded.
  @inline(__always)
  private static func partialWords(_ base: UnsafeRawPointer, count: Int) -> (UInt64, UInt64) {
    var t0: UInt64 = 0
    var t1: UInt64 = 0
    for index in 0..<count {
      let byte = UInt64(base.load(fromByteOffset: index, as: UInt8.self))
      if index < 8 {
        t0 |= byte << (8 * UInt64(index))
      } else {
        t1 |= byte << (8 * UInt64(index - 8))
      }
    }
    return (t0, t1)
  }

  /// The 16-byte tag, `(h mod 2^130 - 5) + s mod 2^128`, as two little-endian words.
  func finalize() -> (UInt64, UInt64) {
    var h0 = self.h0
    var h1 = self.h1
    var h2 = self.h2
    // Fully carry h.
    var carry = h1 >> 44
    h1 &= Self.mask44
    h2 &+= carry
    carry = h2 >> 42
    h2 &= Self.mask42
    h0 &+= carry &* 5
    carry = h0 >> 44
    h0 &= Self.mask44
    h1 &+= carry
    carry = h1 >> 44
    h1 &= Self.mask44
    h2 &+= carry
    carry = h2 >> 42
    h2 &= Self.mask42
    h0 &+= carry &* 5
    carry = h0 >> 44
    h0 &= Self.mask44
    h1 &+= carry
    // g = h + 5 - 2^130; keep g when it does not borrow (h >= p), chosen by mask, not branch.
    var g0 = h0 &+ 5
    carry = g0 >> 44
    g0 &= Self.mask44
    var g1 = h1 &+ carry
    carry = g1 >> 44
    g1 &= Self.mask44
    var g2 = h2 &+ carry &- (1 << 42)
    let keepG = (g2 >> 63) &- 1
    g0 &= keepG
    g1 &= keepG
    g2 &= keepG
    h0 = (h0 & ~keepG) | g0
    h1 = (h1 & ~keepG) | g1
    h2 = (h2 & ~keepG) | g2
    // h + s mod 2^128.
    h0 &+= pad0 & Self.mask44
    carry = h0 >> 44
    h0 &= Self.mask44
    h1 &+= (((pad0 >> 44) | (pad1 << 20)) & Self.mask44) &+ carry
    carry = h1 >> 44
    h1 &= Self.mask44
    h2 &+= ((pad1 >> 24) & Self.mask42) &+ carry
    h2 &= Self.mask42
    return (h0 | (h1 << 44), (h1 >> 20) | (h2 << 24))
  }

  /// The tag as 16 bytes, for tests and for callers that want an array.
  func tagBytes() -> [UInt8] {
    let (low, high) = finalize()
    var words = (low.littleEndian, high.littleEndian)
    return withUnsafeBytes(of: &words) { Array($0) }
  }
}
