/// Arithmetic in GF(p) for P-256, `p = 2^256 - 2^224 + 2^192 + 2^96 - 1`.
///
/// Elements are ``U256`` values in Montgomery form (`x * 2^256 mod p`), always fully reduced.
/// Because `p ≡ -1 (mod 2^64)`, the Montgomery factor `-p^-1 mod 2^64` is 1.
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

  @inline(__always)
  static func multiply(_ a: U256, _ b: U256) -> U256 {
    U256.montgomeryMultiply(
      a, b,
      modulus: U256(
        l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001),
      mInverse: 1)
  }

  @inline(__always)
  static func square(_ a: U256) -> U256 { multiply(a, a) }

  @inline(__always)
  static func add(_ a: U256, _ b: U256) -> U256 { U256.modularAdd(a, b, modulus: prime) }

  @inline(__always)
  static func subtract(_ a: U256, _ b: U256) -> U256 {
    U256.modularSubtract(a, b, modulus: prime)
  }

  @inline(__always)
  static func negate(_ a: U256) -> U256 { subtract(.zero, a) }

  /// Converts a canonical integer `< p` to Montgomery form.
  static func toMontgomery(_ a: U256) -> U256 { multiply(a, rSquared) }

  /// Converts from Montgomery form to the canonical integer.
  static func fromMontgomery(_ a: U256) -> U256 {
    multiply(a, U256(l0: 1, l1: 0, l2: 0, l3: 0))
  }

  /// `a^-1` (Montgomery form in and out) by Fermat, `a^(p-2)`; `a` must be non-zero.
  ///
  /// Variable time: used only on public values (table setup).
  static func inverse(_ a: U256) -> U256 {
    let exponent = U256(
      l0: 0xFFFF_FFFF_FFFF_FFFD, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001)
    return Exponentiation.power(a, exponent, one: one, multiply: multiply)
  }
}

/// Arithmetic modulo the P-256 group order `n`, in Montgomery form (`x * 2^256 mod n`).
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

  @inline(__always)
  static func multiply(_ a: U256, _ b: U256) -> U256 {
    U256.montgomeryMultiply(
      a, b,
      modulus: U256(
        l0: 0xF3B9_CAC2_FC63_2551, l1: 0xBCE6_FAAD_A717_9E84, l2: 0xFFFF_FFFF_FFFF_FFFF,
        l3: 0xFFFF_FFFF_0000_0000),
      mInverse: 0xCCD1_C8AA_EE00_BC4F)
  }

  /// `a mod n` for any 256-bit `a` (one subtraction suffices since `2^256 < 2n`).
  static func reduce(_ a: U256) -> U256 {
    let (d, borrow) = a.subtractingReportingBorrow(order)
    return borrow ? a : d
  }

  /// `a^-1 * 2^256 mod n` (the inverse in Montgomery form) for a canonical `0 < a < n`.
  ///
  /// Fermat's little theorem, `a^(n-2)`; variable time, which is fine for verification because
  /// `s` is public.
  static func inverseMontgomery(_ a: U256) -> U256 {
    let exponent = U256(
      l0: 0xF3B9_CAC2_FC63_254F, l1: 0xBCE6_FAAD_A717_9E84, l2: 0xFFFF_FFFF_FFFF_FFFF,
      l3: 0xFFFF_FFFF_0000_0000)
    return Exponentiation.power(multiply(a, rSquared), exponent, one: one, multiply: multiply)
  }
}

/// Fixed 4-bit-window exponentiation shared by the field and scalar inversions.
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
