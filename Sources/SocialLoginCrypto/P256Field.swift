/// Arithmetic in GF(p) for P-256, `p = 2^256 - 2^224 + 2^192 + 2^96 - 1`.
///
/// Elements are ``U256`` values in Montgomery form (`x * 2^256 mod p`), always fully reduced.
/// Because `p ≡ -1 (mod 2^64)`, the Montgomery factor `-p^-1 mod 2^64` is 1.
///
/// The operations here are constant time (final reductions by mask), for signing and key
/// derivation, which feed them values derived from secrets. Verification uses
/// ``P256Field/VariableTime``, the same arithmetic with branching final reductions.
enum P256Field {
  /// The field prime `p`.
  static let prime = U256(
    l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001)
  /// `2^512 mod p`, to enter the Montgomery domain.
  static let rSquared = U256(
    l0: 0x0000_0000_0000_0003, l1: 0xFFFF_FFFB_FFFF_FFFF, l2: 0xFFFF_FFFF_FFFF_FFFE,
    l3: 0x0000_0004_FFFF_FFFD)
  /// 1 in Montgomery form (`2^256 mod p`).
  static let one = U256(
    l0: 0x0000_0000_0000_0001, l1: 0xFFFF_FFFF_0000_0000, l2: 0xFFFF_FFFF_FFFF_FFFF,
    l3: 0x0000_0000_FFFF_FFFE)

  /// Montgomery product `a * b * 2^-256 mod p`.
  ///
  /// Constant time: the final subtraction of `p` is kept by mask.
  @inline(__always)
  static func multiply(_ a: U256, _ b: U256) -> U256 {
    finalSubtract(multiplyBelowTwicePrime(a, b))
  }

  /// Montgomery square `a * a * 2^-256 mod p`.
  ///
  /// Constant time: the final subtraction of `p` is kept by mask.
  @inline(__always)
  static func square(_ a: U256) -> U256 {
    finalSubtract(squareBelowTwicePrime(a))
  }

  /// The Montgomery product (CIOS) before its final subtraction: a value below `2p` as limbs
  /// 0...3 and a carry bit in limb 4. Because `-p^-1 mod 2^64 = 1` and `p`'s limbs are
  /// `2^64 - 1`, `2^32 - 1`, `0` and `2^64 - 2^32 + 1`, each reduction step is two shifts and
  /// one multiplication instead of four multiplications. Straight-line code, no branch.
  @inline(__always)
  static func multiplyBelowTwicePrime(_ a: U256, _ b: U256) -> (
    UInt64, UInt64, UInt64, UInt64, UInt64
  ) {
    var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    @inline(__always)
    func row(_ bi: UInt64) {
      var c: UInt64 = 0
      t.0 = U256.multiplyAccumulate(t.0, a.l0, bi, &c)
      t.1 = U256.multiplyAccumulate(t.1, a.l1, bi, &c)
      t.2 = U256.multiplyAccumulate(t.2, a.l2, bi, &c)
      t.3 = U256.multiplyAccumulate(t.3, a.l3, bi, &c)
      let upper = UInt128(t.4) &+ UInt128(c)
      reduceStep(&t, upper: upper)
    }
    row(b.l0)
    row(b.l1)
    row(b.l2)
    row(b.l3)
    return t
  }

  /// The Montgomery square before its final subtraction (as
  /// ``multiplyBelowTwicePrime(_:_:)``): the cross products once, doubled, plus the diagonal,
  /// then four reduction steps on the low half and the high half added (SOS).
  @inline(__always)
  static func squareBelowTwicePrime(_ a: U256) -> (UInt64, UInt64, UInt64, UInt64, UInt64) {
    var c: UInt64 = 0
    var r1 = U256.multiplyAccumulate(0, a.l0, a.l1, &c)
    var r2 = U256.multiplyAccumulate(0, a.l0, a.l2, &c)
    var r3 = U256.multiplyAccumulate(0, a.l0, a.l3, &c)
    var r4 = c
    c = 0
    r3 = U256.multiplyAccumulate(r3, a.l1, a.l2, &c)
    r4 = U256.multiplyAccumulate(r4, a.l1, a.l3, &c)
    var r5 = c
    c = 0
    r5 = U256.multiplyAccumulate(r5, a.l2, a.l3, &c)
    var r6 = c
    let r7 = r6 >> 63
    r6 = (r6 << 1) | (r5 >> 63)
    r5 = (r5 << 1) | (r4 >> 63)
    r4 = (r4 << 1) | (r3 >> 63)
    r3 = (r3 << 1) | (r2 >> 63)
    r2 = (r2 << 1) | (r1 >> 63)
    r1 = r1 << 1
    let d0 = UInt128(a.l0) &* UInt128(a.l0)
    let d1 = UInt128(a.l1) &* UInt128(a.l1)
    let d2 = UInt128(a.l2) &* UInt128(a.l2)
    let d3 = UInt128(a.l3) &* UInt128(a.l3)
    let r0 = UInt64(truncatingIfNeeded: d0)
    var sum = UInt128(r1) &+ (d0 &>> 64)
    r1 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(r2) &+ (d1 & 0xFFFF_FFFF_FFFF_FFFF) &+ (sum &>> 64)
    r2 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(r3) &+ (d1 &>> 64) &+ (sum &>> 64)
    r3 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(r4) &+ (d2 & 0xFFFF_FFFF_FFFF_FFFF) &+ (sum &>> 64)
    r4 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(r5) &+ (d2 &>> 64) &+ (sum &>> 64)
    r5 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(r6) &+ (d3 & 0xFFFF_FFFF_FFFF_FFFF) &+ (sum &>> 64)
    r6 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(r7) &+ (d3 &>> 64) &+ (sum &>> 64)
    let r7Final = UInt64(truncatingIfNeeded: sum)
    // Reduce the low half.
    var t = (r0, r1, r2, r3, UInt64(0))
    reduceStep(&t, upper: 0)
    reduceStep(&t, upper: UInt128(t.4))
    reduceStep(&t, upper: UInt128(t.4))
    reduceStep(&t, upper: UInt128(t.4))
    // Add the high half.
    sum = UInt128(t.0) &+ UInt128(r4)
    t.0 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(t.1) &+ UInt128(r5) &+ (sum &>> 64)
    t.1 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(t.2) &+ UInt128(r6) &+ (sum &>> 64)
    t.2 = UInt64(truncatingIfNeeded: sum)
    sum = UInt128(t.3) &+ UInt128(r7Final) &+ (sum &>> 64)
    t.3 = UInt64(truncatingIfNeeded: sum)
    t.4 = t.4 &+ UInt64(truncatingIfNeeded: sum &>> 64)
    return t
  }

  /// One Montgomery step: `t = (t + q * p) / 2^64` with `q = t.0`, where `upper` is the value
  /// of limb 4 (up to 65 bits) before the step.
  @inline(__always)
  private static func reduceStep(
    _ t: inout (UInt64, UInt64, UInt64, UInt64, UInt64), upper: UInt128
  ) {
    let q = t.0
    // Limb 0: t0 + q * (2^64 - 1) = q * 2^64, so limb 1 receives t1 + q * (2^32 - 1) + q.
    let s1 = UInt128(t.1) &+ UInt128(q << 32)
    let s2 = UInt128(t.2) &+ UInt128(q >> 32) &+ (s1 &>> 64)  // p's limb 2 is zero
    let s3 = UInt128(q) &* 0xFFFF_FFFF_0000_0001 &+ UInt128(t.3) &+ (s2 &>> 64)
    let s4 = upper &+ (s3 &>> 64)
    t = (
      UInt64(truncatingIfNeeded: s1), UInt64(truncatingIfNeeded: s2),
      UInt64(truncatingIfNeeded: s3), UInt64(truncatingIfNeeded: s4),
      UInt64(truncatingIfNeeded: s4 &>> 64)
    )
  }

  /// Reduces a value below `2p` (limbs 0...3 plus the bit in limb 4) into `[0, p)`.
  ///
  /// Constant time: the subtraction is always computed and kept by mask.
  @inline(__always)
  private static func finalSubtract(_ t: (UInt64, UInt64, UInt64, UInt64, UInt64)) -> U256 {
    let value = U256(l0: t.0, l1: t.1, l2: t.2, l3: t.3)
    let (reduced, borrow) = value.subtractingWithBorrow(
      U256(l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001))
    return U256.select(borrow & ~t.4 & 1, value, reduced)
  }

  /// `(a + b) mod p`. Constant time.
  @inline(__always)
  static func add(_ a: U256, _ b: U256) -> U256 {
    U256.modularAdd(
      a, b,
      modulus: U256(
        l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001))
  }

  /// `(a - b) mod p`. Constant time.
  @inline(__always)
  static func subtract(_ a: U256, _ b: U256) -> U256 {
    U256.modularSubtract(
      a, b,
      modulus: U256(
        l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001))
  }

  /// `-a mod p`. Constant time.
  @inline(__always)
  static func negate(_ a: U256) -> U256 { subtract(U256(l0: 0, l1: 0, l2: 0, l3: 0), a) }

  /// Converts a canonical integer `< p` to Montgomery form. Constant time.
  static func toMontgomery(_ a: U256) -> U256 { multiply(a, rSquared) }

  /// Converts from Montgomery form to the canonical integer. Constant time.
  static func fromMontgomery(_ a: U256) -> U256 {
    multiply(a, U256(l0: 1, l1: 0, l2: 0, l3: 0))
  }

  /// `a^-1` (Montgomery form in and out) by Fermat, `a^(p-2)`; `a` must be non-zero.
  ///
  /// Constant time: the exponent is the fixed, public `p - 2` (its windows decide the
  /// sequence of operations, the same for every `a`) and every product is constant time. Used
  /// for the affine coordinates of `k * G` in signing and key derivation.
  static func inverse(_ a: U256) -> U256 {
    let exponent = U256(
      l0: 0xFFFF_FFFF_FFFF_FFFD, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001)
    return Exponentiation.power(a, exponent, one: one, multiply: multiply)
  }
}

/// Arithmetic modulo the P-256 group order `n`, in Montgomery form (`x * 2^256 mod n`).
///
/// Constant time (final reductions by mask), for signing; verification uses
/// ``P256Scalar/VariableTime``.
enum P256Scalar {
  /// The group order `n`.
  static let order = U256(
    l0: 0xF3B9_CAC2_FC63_2551, l1: 0xBCE6_FAAD_A717_9E84, l2: 0xFFFF_FFFF_FFFF_FFFF,
    l3: 0xFFFF_FFFF_0000_0000)
  /// `-n^-1 mod 2^64`.
  static let orderInverse: UInt64 = 0xCCD1_C8AA_EE00_BC4F
  /// `2^512 mod n`.
  static let rSquared = U256(
    l0: 0x8324_4C95_BE79_EEA2, l1: 0x4699_799C_49BD_6FA6, l2: 0x2845_B239_2B6B_EC59,
    l3: 0x66E1_2D94_F3D9_5620)
  /// 1 in Montgomery form (`2^256 mod n`).
  static let one = U256(
    l0: 0x0C46_353D_039C_DAAF, l1: 0x4319_0552_58E8_617B, l2: 0, l3: 0x0000_0000_FFFF_FFFF)

  /// Montgomery product `a * b * 2^-256 mod n`. Constant time.
  @inline(__always)
  static func multiply(_ a: U256, _ b: U256) -> U256 {
    U256.montgomeryMultiply(
      a, b,
      modulus: U256(
        l0: 0xF3B9_CAC2_FC63_2551, l1: 0xBCE6_FAAD_A717_9E84, l2: 0xFFFF_FFFF_FFFF_FFFF,
        l3: 0xFFFF_FFFF_0000_0000),
      mInverse: 0xCCD1_C8AA_EE00_BC4F)
  }

  /// `a mod n` for any 256-bit `a` (one subtraction suffices since `2^256 < 2n`). Constant
  /// time.
  static func reduce(_ a: U256) -> U256 {
    let (d, borrow) = a.subtractingWithBorrow(order)
    return U256.select(borrow, a, d)
  }

  /// `a^-1 * 2^256 mod n` (the inverse in Montgomery form) for a canonical `0 < a < n`.
  ///
  /// Fermat's little theorem, `a^(n-2)`. Constant time: the exponent is the fixed, public
  /// `n - 2` and every product is constant time, so signing may invert its secret nonce `k`.
  static func inverseMontgomery(_ a: U256) -> U256 {
    let exponent = U256(
      l0: 0xF3B9_CAC2_FC63_254F, l1: 0xBCE6_FAAD_A717_9E84, l2: 0xFFFF_FFFF_FFFF_FFFF,
      l3: 0xFFFF_FFFF_0000_0000)
    return Exponentiation.power(multiply(a, rSquared), exponent, one: one, multiply: multiply)
  }
}

/// Fixed 4-bit-window exponentiation shared by the field and scalar inversions.
///
/// The sequence of operations and table reads depends only on `exponent`, never on `base`:
/// with a fixed public exponent and a constant-time `multiply`, the whole power is constant time
/// in the base.
enum Exponentiation {
  @inline(__always)
  static func power(
    _ base: U256, _ exponent: U256, one: U256, multiply: (U256, U256) -> U256
  ) -> U256 {
    // table[i] = base^i, i in 0..<16; a tuple-free fixed array on the stack.
    return withUnsafeTemporaryAllocation(of: U256.self, capacity: 16) { table in
      table.initialize(repeating: one)
      table[1] = base
      for index in 2..<16 {
        table[index] = multiply(table[index - 1], base)
      }
      var result = one
      var started = false
      for window in stride(from: 63, through: 0, by: -1) {
        if started {
          result = multiply(result, result)
          result = multiply(result, result)
          result = multiply(result, result)
          result = multiply(result, result)
        }
        let digit = exponent.nibble(window)
        if digit != 0 {
          result = started ? multiply(result, table[digit]) : table[digit]
          started = true
        }
      }
      return result
    }
  }
}
