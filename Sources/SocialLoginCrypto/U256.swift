/// A 256-bit unsigned integer as four little-endian 64-bit limbs (`l0` least significant).
///
/// The storage for P-256 field elements and scalars; no heap, no bounds checks. The modular
/// helpers in this file (``montgomeryMultiply(_:_:modulus:mInverse:)``,
/// ``modularAdd(_:_:modulus:)``, ``modularSubtract(_:_:modulus:)``, ``select(_:_:_:)``) are
/// constant time: they select their result with masks instead of branches, so signing, which
/// feeds them secret scalars, runs in time independent of the values. Verification, which sees
/// only public data, uses the faster branching variants in `U256+VariableTime.swift`.
struct U256: Equatable, Sendable {
  var l0: UInt64
  var l1: UInt64
  var l2: UInt64
  var l3: UInt64

  static let zero = U256(l0: 0, l1: 0, l2: 0, l3: 0)

  @inline(__always)
  init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64) {
    self.l0 = l0
    self.l1 = l1
    self.l2 = l2
    self.l3 = l3
  }

  /// Reads exactly 32 big-endian bytes starting at `start`.
  init(bigEndian bytes: [UInt8], from start: Int) {
    func limb(_ offset: Int) -> UInt64 {
      var value: UInt64 = 0
      for index in 0..<8 {
        value = (value << 8) | UInt64(bytes[start + offset + index])
      }
      return value
    }
    self.init(l0: limb(24), l1: limb(16), l2: limb(8), l3: limb(0))
  }

  /// The 32 big-endian bytes of the value.
  var bigEndianBytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    for limb in [l3, l2, l1, l0] {
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift)))
      }
    }
    return bytes
  }

  @inline(__always)
  var isZero: Bool { (l0 | l1 | l2 | l3) == 0 }

  @inline(__always)
  var isOdd: Bool { l0 & 1 == 1 }

  /// Bit `index` (0 = least significant).
  @inline(__always)
  func bit(_ index: Int) -> UInt64 {
    let limb: UInt64
    switch index >> 6 {
    case 0: limb = l0
    case 1: limb = l1
    case 2: limb = l2
    default: limb = l3
    }
    return (limb >> UInt64(index & 63)) & 1
  }

  /// Four bits starting at bit `4 * index`.
  @inline(__always)
  func nibble(_ index: Int) -> Int {
    let limb: UInt64
    switch index >> 4 {
    case 0: limb = l0
    case 1: limb = l1
    case 2: limb = l2
    default: limb = l3
    }
    return Int(truncatingIfNeeded: (limb >> UInt64((index & 15) * 4)) & 0xF)
  }

  /// `self + other`, with the carry out. (128-bit intermediates compile to an `adc` chain;
  /// `Bool` carries would compile to branches.)
  @inline(__always)
  func addingReportingCarry(_ other: U256) -> (U256, Bool) {
    let (sum, carry) = addingWithCarry(other)
    return (sum, carry != 0)
  }

  /// `self + other` and the carry out as 0 or 1.
  @inline(__always)
  func addingWithCarry(_ other: U256) -> (U256, UInt64) {
    var s = UInt128(l0) &+ UInt128(other.l0)
    let r0 = UInt64(truncatingIfNeeded: s)
    s = UInt128(l1) &+ UInt128(other.l1) &+ (s &>> 64)
    let r1 = UInt64(truncatingIfNeeded: s)
    s = UInt128(l2) &+ UInt128(other.l2) &+ (s &>> 64)
    let r2 = UInt64(truncatingIfNeeded: s)
    s = UInt128(l3) &+ UInt128(other.l3) &+ (s &>> 64)
    let r3 = UInt64(truncatingIfNeeded: s)
    return (U256(l0: r0, l1: r1, l2: r2, l3: r3), UInt64(truncatingIfNeeded: s &>> 64))
  }

  /// `self - other`, with the borrow out.
  @inline(__always)
  func subtractingReportingBorrow(_ other: U256) -> (U256, Bool) {
    let (difference, borrow) = subtractingWithBorrow(other)
    return (difference, borrow != 0)
  }

  /// `self - other` and the borrow out as 0 or 1.
  @inline(__always)
  func subtractingWithBorrow(_ other: U256) -> (U256, UInt64) {
    var d = UInt128(l0) &- UInt128(other.l0)
    let r0 = UInt64(truncatingIfNeeded: d)
    d = UInt128(l1) &- UInt128(other.l1) &- (d &>> 127)
    let r1 = UInt64(truncatingIfNeeded: d)
    d = UInt128(l2) &- UInt128(other.l2) &- (d &>> 127)
    let r2 = UInt64(truncatingIfNeeded: d)
    d = UInt128(l3) &- UInt128(other.l3) &- (d &>> 127)
    let r3 = UInt64(truncatingIfNeeded: d)
    return (U256(l0: r0, l1: r1, l2: r2, l3: r3), UInt64(truncatingIfNeeded: d &>> 127))
  }

  /// Whether `self < other`.
  @inline(__always)
  func isLess(than other: U256) -> Bool {
    subtractingReportingBorrow(other).1
  }

  /// `self >> 1`, shifting `topBit` into bit 255.
  @inline(__always)
  func shiftedRightOne(topBit: UInt64 = 0) -> U256 {
    U256(
      l0: (l0 >> 1) | (l1 << 63), l1: (l1 >> 1) | (l2 << 63), l2: (l2 >> 1) | (l3 << 63),
      l3: (l3 >> 1) | (topBit << 63))
  }

  @inline(__always)
  static func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: Bool) -> (UInt64, Bool) {
    let (s1, o1) = a.addingReportingOverflow(b)
    let (s2, o2) = s1.addingReportingOverflow(carry ? 1 : 0)
    return (s2, o1 || o2)
  }

  @inline(__always)
  static func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: Bool) -> (UInt64, Bool) {
    let (d1, o1) = a.subtractingReportingOverflow(b)
    let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
    return (d2, o1 || o2)
  }

  /// `acc + x * y + carry`: returns the low limb and leaves the high limb in `carry`.
  @inline(__always)
  static func multiplyAccumulate(
    _ acc: UInt64, _ x: UInt64, _ y: UInt64, _ carry: inout UInt64
  ) -> UInt64 {
    let sum = UInt128(x) &* UInt128(y) &+ UInt128(acc) &+ UInt128(carry)
    carry = UInt64(truncatingIfNeeded: sum &>> 64)
    return UInt64(truncatingIfNeeded: sum)
  }

  /// Montgomery product `a * b * 2^-256 mod m` for `a, b < m`, `m` odd, `mInverse = -m^-1 mod
  /// 2^64`. The result is fully reduced. Inlined so constant moduli fold into the code.
  ///
  /// Constant time: the final subtraction is always computed and kept by mask.
  @inline(__always)
  static func montgomeryMultiply(_ a: U256, _ b: U256, modulus m: U256, mInverse: UInt64) -> U256 {
    let (t, t4) = montgomeryProductBelowTwiceModulus(a, b, modulus: m, mInverse: mInverse)
    let (reduced, borrow) = t.subtractingWithBorrow(m)
    // Keep `t` only when it was below m (no borrow-free subtraction and no fifth limb).
    return U256.select(borrow & ~t4 & 1, t, reduced)
  }

  /// The CIOS Montgomery product before its final subtraction: `a * b * 2^-256 mod m` plus
  /// possibly one `m`, as four limbs and a fifth (0 or 1). Straight-line code, no branch; the
  /// two callers differ only in how they reduce the result below `m`.
  @inline(__always)
  static func montgomeryProductBelowTwiceModulus(
    _ a: U256, _ b: U256, modulus m: U256, mInverse: UInt64
  ) -> (U256, UInt64) {
    var t0: UInt64 = 0
    var t1: UInt64 = 0
    var t2: UInt64 = 0
    var t3: UInt64 = 0
    var t4: UInt64 = 0
    @inline(__always)
    func row(_ bi: UInt64) {
      var c: UInt64 = 0
      t0 = multiplyAccumulate(t0, a.l0, bi, &c)
      t1 = multiplyAccumulate(t1, a.l1, bi, &c)
      t2 = multiplyAccumulate(t2, a.l2, bi, &c)
      t3 = multiplyAccumulate(t3, a.l3, bi, &c)
      let upper = UInt128(t4) &+ UInt128(c)
      let q = t0 &* mInverse
      c = 0
      _ = multiplyAccumulate(t0, q, m.l0, &c)
      t0 = multiplyAccumulate(t1, q, m.l1, &c)
      t1 = multiplyAccumulate(t2, q, m.l2, &c)
      t2 = multiplyAccumulate(t3, q, m.l3, &c)
      let top = upper &+ UInt128(c)
      t3 = UInt64(truncatingIfNeeded: top)
      t4 = UInt64(truncatingIfNeeded: top &>> 64)
    }
    row(b.l0)
    row(b.l1)
    row(b.l2)
    row(b.l3)
    return (U256(l0: t0, l1: t1, l2: t2, l3: t3), t4)
  }

  /// `(a + b) mod m` for `a, b < m`.
  ///
  /// Constant time: the subtraction of `m` is always computed and kept by mask.
  @inline(__always)
  static func modularAdd(_ a: U256, _ b: U256, modulus m: U256) -> U256 {
    let (sum, carry) = a.addingWithCarry(b)
    let (reduced, borrow) = sum.subtractingWithBorrow(m)
    // Keep `sum` only when it did not overflow and was below m.
    return U256.select(borrow & ~carry & 1, sum, reduced)
  }

  /// `(a - b) mod m` for `a, b < m`.
  ///
  /// Constant time: `m` is always added back, masked to zero when the subtraction did not
  /// borrow.
  @inline(__always)
  static func modularSubtract(_ a: U256, _ b: U256, modulus m: U256) -> U256 {
    let (difference, borrow) = a.subtractingWithBorrow(b)
    // Add m back when the subtraction borrowed: m masked by the borrow, no branch.
    let mask = 0 &- borrow
    let correction = U256(l0: m.l0 & mask, l1: m.l1 & mask, l2: m.l2 & mask, l3: m.l3 & mask)
    return difference.addingWithCarry(correction).0
  }

  /// `condition == 1 ? a : b` for `condition` in `{0, 1}`, without a data-dependent branch.
  @inline(__always)
  static func select(_ condition: UInt64, _ a: U256, _ b: U256) -> U256 {
    let mask = 0 &- condition
    return U256(
      l0: (a.l0 & mask) | (b.l0 & ~mask), l1: (a.l1 & mask) | (b.l1 & ~mask),
      l2: (a.l2 & mask) | (b.l2 & ~mask), l3: (a.l3 & mask) | (b.l3 & ~mask))
  }

  /// 1 when the value is zero, else 0, without a data-dependent branch.
  @inline(__always)
  var isZeroBit: UInt64 {
    let any = l0 | l1 | l2 | l3
    return ((any | (0 &- any)) >> 63) ^ 1
  }
}
