// Variable-time Montgomery products for RSA verification, where every input is public (the
// modulus, the public exponent, the signature).
//
// The products are the same as the constant-time ones in MontgomeryContext.swift; the final
// reduction compares from the top limb and subtracts only when the value reached `n`, which
// for a 2048-bit modulus is almost never, instead of always subtracting and masking. Never
// pass these a secret (a private exponent, a CRT prime or a value derived from one).

extension MontgomeryContext {
  /// Montgomery product `result = a * b * R^-1 mod n`, variable time: public data only.
  ///
  /// `a` and `b` must be `< n`; `result` may alias either. `t` needs `count + 1` limbs.
  static func multiplyVariableTime(
    _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
    into result: UnsafeMutablePointer<UInt64>, scratch t: UnsafeMutablePointer<UInt64>,
    modulus n: UnsafePointer<UInt64>, count s: Int, n0Inverse: UInt64
  ) {
    multiplyBelowTwiceModulus(a, b, scratch: t, modulus: n, count: s, n0Inverse: n0Inverse)
    reduceOnceVariableTime(t, top: t[s], modulus: n, count: s, into: result)
  }

  /// Montgomery square `result = a * a * R^-1 mod n`, variable time: public data only.
  ///
  /// `a < n`; `result` may alias `a`. `t` needs `2 * count` limbs.
  static func squareVariableTime(
    _ a: UnsafePointer<UInt64>, into result: UnsafeMutablePointer<UInt64>,
    scratch t: UnsafeMutablePointer<UInt64>,
    modulus n: UnsafePointer<UInt64>, count s: Int, n0Inverse: UInt64
  ) {
    let top = squareBelowTwiceModulus(a, scratch: t, modulus: n, count: s, n0Inverse: n0Inverse)
    reduceOnceVariableTime(t + s, top: top, modulus: n, count: s, into: result)
  }

  /// `result = (top * R + t) mod n` for a value below `2n`: compares from the top limb and
  /// subtracts `n` only when the value is at least `n`. `result` must not alias `t`.
  @inline(__always)
  private static func reduceOnceVariableTime(
    _ t: UnsafeMutablePointer<UInt64>, top: UInt64, modulus n: UnsafePointer<UInt64>,
    count s: Int, into result: UnsafeMutablePointer<UInt64>
  ) {
    var needsSubtraction = top != 0
    if !needsSubtraction {
      needsSubtraction = true  // equal to n also subtracts
      var k = s - 1
      while k >= 0 {
        if t[k] != n[k] {
          needsSubtraction = t[k] > n[k]
          break
        }
        k -= 1
      }
    }
    if needsSubtraction {
      var borrow: UInt64 = 0
      for k in 0..<s {
        let d = UInt128(t[k]) &- UInt128(n[k]) &- UInt128(borrow)
        result[k] = UInt64(truncatingIfNeeded: d)
        borrow = UInt64(truncatingIfNeeded: d &>> 127)
      }
    } else {
      result.update(from: t, count: s)
    }
  }
}
