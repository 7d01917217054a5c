// Unsigned big-integer helpers for private-key work (RSA signing, key import and generation),
// on little-endian arrays of 64-bit limbs.
//
// Unlike `Limbs`, these never branch on limb values and never index memory by them: their
// running time depends only on the lengths of their inputs, so they may handle primes, private
// exponents and intermediate values of a signature.

enum SecretLimbs {
  /// `condition == 1 ? a : b` for `condition` in `{0, 1}`, limb by limb (equal lengths).
  static func select(_ condition: UInt64, _ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
    let mask = 0 &- condition
    var result = b
    for index in result.indices {
      result[index] = (a[index] & mask) | (b[index] & ~mask)
    }
    return result
  }

  /// `a - b` over equal lengths, with the borrow out as 0 or 1.
  static func subtract(_ a: [UInt64], _ b: [UInt64]) -> ([UInt64], UInt64) {
    var result = a
    var borrow: UInt64 = 0
    for index in result.indices {
      let d = UInt128(a[index]) &- UInt128(b[index]) &- UInt128(borrow)
      result[index] = UInt64(truncatingIfNeeded: d)
      borrow = UInt64(truncatingIfNeeded: d &>> 127)
    }
    return (result, borrow)
  }

  /// `a + b` over equal lengths, with the carry out as 0 or 1.
  static func add(_ a: [UInt64], _ b: [UInt64]) -> ([UInt64], UInt64) {
    var result = a
    var carry: UInt64 = 0
    for index in result.indices {
      let s = UInt128(a[index]) &+ UInt128(b[index]) &+ UInt128(carry)
      result[index] = UInt64(truncatingIfNeeded: s)
      carry = UInt64(truncatingIfNeeded: s &>> 64)
    }
    return (result, carry)
  }

  /// `(a - b) mod m` for `a, b < m` (equal lengths).
  static func modularSubtract(_ a: [UInt64], _ b: [UInt64], modulus m: [UInt64]) -> [UInt64] {
    let (difference, borrow) = subtract(a, b)
    let mask = 0 &- borrow
    return add(difference, m.map { $0 & mask }).0
  }

  /// The full product `a * b` (`a.count + b.count` limbs), schoolbook.
  static func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
    var result = [UInt64](repeating: 0, count: a.count + b.count)
    for i in a.indices {
      var carry: UInt64 = 0
      for j in b.indices {
        let t = UInt128(a[i]) &* UInt128(b[j]) &+ UInt128(result[i + j]) &+ UInt128(carry)
        result[i + j] = UInt64(truncatingIfNeeded: t)
        carry = UInt64(truncatingIfNeeded: t &>> 64)
      }
      result[i + b.count] = carry
    }
    return result
  }

  /// `a * small + addend`, one limb longer than `a`.
  static func multiply(_ a: [UInt64], bySmall small: UInt64, adding addend: UInt64) -> [UInt64] {
    var result = [UInt64](repeating: 0, count: a.count + 1)
    var carry = addend
    for index in a.indices {
      let t = UInt128(a[index]) &* UInt128(small) &+ UInt128(carry)
      result[index] = UInt64(truncatingIfNeeded: t)
      carry = UInt64(truncatingIfNeeded: t &>> 64)
    }
    result[a.count] = carry
    return result
  }

  /// `a / divisor` for an odd `divisor` that divides `a` exactly (Jebelean's exact division:
  /// multiplications by `divisor^-1 mod 2^64`, no hardware division).
  static func divideExactly(_ a: [UInt64], byOdd divisor: UInt64) -> [UInt64] {
    let inverse = 0 &- Limbs.negativeInverse(of: divisor)  // divisor^-1 mod 2^64
    var result = a
    var borrow: UInt64 = 0
    for index in a.indices {
      let (t, overflow) = a[index].subtractingReportingOverflow(borrow)
      let q = t &* inverse
      result[index] = q
      let high = UInt64(truncatingIfNeeded: (UInt128(q) &* UInt128(divisor)) &>> 64)
      borrow = high &+ (overflow ? 1 : 0)
    }
    return result
  }

  /// `a mod m` (the result has `m.count` limbs) for any `a` and non-zero `m`, one bit of `a`
  /// at a time with a masked subtraction: time depends only on the lengths.
  static func remainder(_ a: [UInt64], modulus m: [UInt64]) -> [UInt64] {
    let width = m.count + 1
    let wideModulus = m + [0]
    var r = [UInt64](repeating: 0, count: width)
    for bit in stride(from: a.count * 64 - 1, through: 0, by: -1) {
      // r = 2r + bit; r < 2m fits in m.count + 1 limbs.
      var carry = (a[bit >> 6] >> UInt64(bit & 63)) & 1
      for index in 0..<width {
        let limb = r[index]
        r[index] = (limb << 1) | carry
        carry = limb >> 63
      }
      let (reduced, borrow) = subtract(r, wideModulus)
      r = select(borrow, r, reduced)
    }
    return Array(r[0..<m.count])
  }

  /// Whether `a == b` (equal lengths) as 1 or 0.
  static func equalBit(_ a: [UInt64], _ b: [UInt64]) -> UInt64 {
    var difference: UInt64 = 0
    for index in a.indices {
      difference |= a[index] ^ b[index]
    }
    return ((difference | (0 &- difference)) >> 63) ^ 1
  }

  /// `count` limbs holding `value` (zero-extended or truncated).
  static func resized(_ value: [UInt64], to count: Int) -> [UInt64] {
    if value.count >= count { return Array(value[0..<count]) }
    return value + [UInt64](repeating: 0, count: count - value.count)
  }

  /// The big-endian bytes of `value`, exactly `byteCount` long (truncating high zero limbs).
  static func bigEndianBytes(_ value: [UInt64], byteCount: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: byteCount)
    for index in 0..<byteCount {
      let limb = index >> 3
      let byte =
        limb < value.count ? UInt8(truncatingIfNeeded: value[limb] >> UInt64(8 * (index & 7))) : 0
      bytes[byteCount - 1 - index] = byte
    }
    return bytes
  }
}
