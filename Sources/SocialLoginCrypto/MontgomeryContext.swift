/// Montgomery arithmetic modulo an odd multi-limb modulus `n` (the RSA modulus).
///
/// Values are little-endian arrays of `limbCount` 64-bit limbs, fully reduced (`< n`).
/// `R = 2^(64 * limbCount)`. The hot routines work on caller-provided buffers and never
/// allocate. They come in two variants that share the products:
/// ``multiply(_:_:into:scratch:modulus:count:n0Inverse:)`` and
/// ``square(_:into:scratch:modulus:count:n0Inverse:)`` are constant time (the final conditional
/// subtraction is always computed and kept by mask; only the loop bounds depend on the modulus
/// length), so RSA signing can run private values and secret primes through them;
/// `multiplyVariableTime` and `squareVariableTime` (MontgomeryContext+VariableTime.swift)
/// compare and subtract only when needed, for verification with the public exponent.
struct MontgomeryContext: Sendable {
  /// The modulus limbs, little-endian; the top limb is non-zero.
  let modulus: [UInt64]
  /// `-n^-1 mod 2^64`.
  let n0Inverse: UInt64
  /// `R^2 mod n`, used to enter the Montgomery domain.
  let rSquared: [UInt64]

  /// Number of limbs of the modulus.
  var limbCount: Int { modulus.count }

  /// Creates the context for an odd `modulus` whose top limb is non-zero.
  init(modulus: [UInt64]) {
    precondition(modulus.count > 0 && modulus[0] & 1 == 1 && modulus[modulus.count - 1] != 0)
    self.modulus = modulus
    self.n0Inverse = Limbs.negativeInverse(of: modulus[0])
    self.rSquared = Self.computeRSquared(modulus)
  }

  /// `R^2 mod n` by repeated modular doubling of 1 (once per key, `2 * 64 * limbCount` steps).
  ///
  /// Each step subtracts `n` into scratch and keeps the difference by mask, so the time does
  /// not depend on the modulus (a secret prime for RSA private keys).
  private static func computeRSquared(_ modulus: [UInt64]) -> [UInt64] {
    let count = modulus.count
    var value = [UInt64](repeating: 0, count: count)
    var difference = [UInt64](repeating: 0, count: count)
    value[0] = 1
    value.withUnsafeMutableBufferPointer { v in
      difference.withUnsafeMutableBufferPointer { d in
        modulus.withUnsafeBufferPointer { n in
          for _ in 0..<(128 * count) {
            // v = 2v; the top bit shifted out is `carry`.
            var carry: UInt64 = 0
            for i in 0..<count {
              let limb = v[i]
              v[i] = (limb << 1) | carry
              carry = limb >> 63
            }
            var borrow: UInt64 = 0
            for i in 0..<count {
              let t = UInt128(v[i]) &- UInt128(n[i]) &- UInt128(borrow)
              d[i] = UInt64(truncatingIfNeeded: t)
              borrow = UInt64(truncatingIfNeeded: t &>> 127)
            }
            // Keep v only when it neither overflowed nor reached n.
            let keep = 0 &- (borrow & ~carry & 1)
            for i in 0..<count {
              v[i] = (v[i] & keep) | (d[i] & ~keep)
            }
          }
        }
      }
    }
    return value
  }

  /// `v -= n` in place, returning the borrow.
  @discardableResult
  static func subtract(
    _ v: UnsafeMutableBufferPointer<UInt64>, _ n: UnsafeBufferPointer<UInt64>
  ) -> Bool {
    var borrow = false
    for i in 0..<v.count {
      let (d1, o1) = v[i].subtractingReportingOverflow(n[i])
      let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
      v[i] = d2
      borrow = o1 || o2
    }
    return borrow
  }

  /// Montgomery product `result = a * b * R^-1 mod n` (CIOS, interleaved reduction).
  ///
  /// `a` and `b` must be `< n`; `result` may alias either. `t` needs `count + 1` limbs.
  /// Constant time: the final subtraction is kept by mask.
  static func multiply(
    _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
    into result: UnsafeMutablePointer<UInt64>, scratch t: UnsafeMutablePointer<UInt64>,
    modulus n: UnsafePointer<UInt64>, count s: Int, n0Inverse: UInt64
  ) {
    multiplyBelowTwiceModulus(a, b, scratch: t, modulus: n, count: s, n0Inverse: n0Inverse)
    reduceOnce(t, top: t[s], modulus: n, count: s, into: result)
  }

  /// The CIOS product `a * b * R^-1`, below `2n`, left in `t[0..<count]` with its top limb in
  /// `t[count]`, for ``multiply(_:_:into:scratch:modulus:count:n0Inverse:)`` and
  /// `multiplyVariableTime` to reduce. No branch depends on the values.
  @inline(__always)
  static func multiplyBelowTwiceModulus(
    _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
    scratch t: UnsafeMutablePointer<UInt64>,
    modulus n: UnsafePointer<UInt64>, count s: Int, n0Inverse: UInt64
  ) {
    t.update(repeating: 0, count: s + 1)
    for i in 0..<s {
      let bi = UInt128(b[i])
      // j = 0: the reduction factor m makes the low limb vanish.
      var product = UInt128(a[0]) &* bi &+ UInt128(t[0])
      let u0 = UInt64(truncatingIfNeeded: product)
      var c1 = UInt64(truncatingIfNeeded: product &>> 64)
      let m = UInt128(u0 &* n0Inverse)
      var reduction = m &* UInt128(n[0]) &+ UInt128(u0)
      var c2 = UInt64(truncatingIfNeeded: reduction &>> 64)
      var j = 1
      while j < s {
        product = UInt128(a[j]) &* bi &+ UInt128(t[j]) &+ UInt128(c1)
        c1 = UInt64(truncatingIfNeeded: product &>> 64)
        reduction =
          m &* UInt128(n[j]) &+ UInt128(UInt64(truncatingIfNeeded: product)) &+ UInt128(c2)
        c2 = UInt64(truncatingIfNeeded: reduction &>> 64)
        t[j - 1] = UInt64(truncatingIfNeeded: reduction)
        j += 1
      }
      let top = UInt128(t[s]) &+ UInt128(c1) &+ UInt128(c2)
      t[s - 1] = UInt64(truncatingIfNeeded: top)
      t[s] = UInt64(truncatingIfNeeded: top &>> 64)
    }
  }

  /// Montgomery square `result = a * a * R^-1 mod n`: the full square (each cross product
  /// computed once, then doubled) followed by a separate Montgomery reduction, about 25% fewer
  /// multiplications than ``multiply(_:_:into:scratch:modulus:count:n0Inverse:)``.
  ///
  /// `a < n`; `result` may alias `a`. `t` needs `2 * count` limbs. Constant time: the final
  /// subtraction is kept by mask.
  static func square(
    _ a: UnsafePointer<UInt64>, into result: UnsafeMutablePointer<UInt64>,
    scratch t: UnsafeMutablePointer<UInt64>,
    modulus n: UnsafePointer<UInt64>, count s: Int, n0Inverse: UInt64
  ) {
    let top = squareBelowTwiceModulus(a, scratch: t, modulus: n, count: s, n0Inverse: n0Inverse)
    reduceOnce(t + s, top: top, modulus: n, count: s, into: result)
  }

  /// The square `a * a * R^-1`, below `2n`, left in `t[count..<2 * count]`; returns its top
  /// limb. For ``square(_:into:scratch:modulus:count:n0Inverse:)`` and `squareVariableTime` to
  /// reduce. No branch depends on the values.
  @inline(__always)
  static func squareBelowTwiceModulus(
    _ a: UnsafePointer<UInt64>, scratch t: UnsafeMutablePointer<UInt64>,
    modulus n: UnsafePointer<UInt64>, count s: Int, n0Inverse: UInt64
  ) -> UInt64 {
    t.update(repeating: 0, count: 2 * s)
    // Cross products a[i] * a[j], i < j.
    var i = 0
    while i < s - 1 {
      let ai = UInt128(a[i])
      var carry: UInt64 = 0
      var j = i + 1
      while j < s {
        let product = ai &* UInt128(a[j]) &+ UInt128(t[i + j]) &+ UInt128(carry)
        t[i + j] = UInt64(truncatingIfNeeded: product)
        carry = UInt64(truncatingIfNeeded: product &>> 64)
        j += 1
      }
      t[i + s] = carry
      i += 1
    }
    // Double them.
    var shifted: UInt64 = 0
    for k in 0..<(2 * s) {
      let limb = t[k]
      t[k] = (limb << 1) | shifted
      shifted = limb >> 63
    }
    // Add the squares a[i]^2 on the diagonal.
    var carry: UInt64 = 0
    for k in 0..<s {
      let square = UInt128(a[k]) &* UInt128(a[k])
      let low = UInt128(t[2 * k]) &+ (square & 0xFFFF_FFFF_FFFF_FFFF) &+ UInt128(carry)
      t[2 * k] = UInt64(truncatingIfNeeded: low)
      let high = UInt128(t[2 * k + 1]) &+ (square &>> 64) &+ (low &>> 64)
      t[2 * k + 1] = UInt64(truncatingIfNeeded: high)
      carry = UInt64(truncatingIfNeeded: high &>> 64)
    }
    return reduceBelowTwiceModulus(t, modulus: n, count: s, n0Inverse: n0Inverse)
  }

  /// Montgomery reduction (SOS), one limb at a time: the `2 * count` limbs of `t` (a value
  /// below `n * R`) become `t * R^-1`, below `2n`, left in `t[count..<2 * count]`; returns its
  /// top limb. For the square and for ``reduce(_:)`` to finish with one subtraction. No branch
  /// depends on the values.
  @inline(__always)
  static func reduceBelowTwiceModulus(
    _ t: UnsafeMutablePointer<UInt64>, modulus n: UnsafePointer<UInt64>, count s: Int,
    n0Inverse: UInt64
  ) -> UInt64 {
    var top: UInt64 = 0
    for k in 0..<s {
      let m = UInt128(t[k] &* n0Inverse)
      var c: UInt64 = 0
      for j in 0..<s {
        let sum = m &* UInt128(n[j]) &+ UInt128(t[k + j]) &+ UInt128(c)
        t[k + j] = UInt64(truncatingIfNeeded: sum)
        c = UInt64(truncatingIfNeeded: sum &>> 64)
      }
      let sum = UInt128(t[k + s]) &+ UInt128(c) &+ UInt128(top)
      t[k + s] = UInt64(truncatingIfNeeded: sum)
      top = UInt64(truncatingIfNeeded: sum &>> 64)
    }
    return top
  }

  /// `result = (top * R + t) mod n` for a value below `2n`: one conditional subtraction,
  /// always computed and kept by mask (constant time). `result` must not alias `t`.
  @inline(__always)
  static func reduceOnce(
    _ t: UnsafeMutablePointer<UInt64>, top: UInt64, modulus n: UnsafePointer<UInt64>,
    count s: Int, into result: UnsafeMutablePointer<UInt64>
  ) {
    var borrow: UInt64 = 0
    for k in 0..<s {
      let d = UInt128(t[k]) &- UInt128(n[k]) &- UInt128(borrow)
      result[k] = UInt64(truncatingIfNeeded: d)
      borrow = UInt64(truncatingIfNeeded: d &>> 127)
    }
    // Keep t when it was below n: the subtraction borrowed and there is no top limb.
    let keep = 0 &- (borrow & ((top | (0 &- top)) >> 63 ^ 1))
    for k in 0..<s {
      result[k] = (t[k] & keep) | (result[k] & ~keep)
    }
  }
}
