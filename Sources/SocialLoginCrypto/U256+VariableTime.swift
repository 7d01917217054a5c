// Variable-time modular helpers for verification, where every input is public.
//
// They compute the same values as the constant-time helpers in U256.swift but choose their
// result with a branch (or whatever the compiler makes of it) instead of a mask: a few
// instructions less per field operation, which ECDSA verification performs thousands of times.
// Never pass them a secret (a private scalar, a nonce or anything derived from one).

extension U256 {
  /// Montgomery product `a * b * 2^-256 mod m` for `a, b < m`, fully reduced.
  ///
  /// Variable time (the final subtraction branches): public data only.
  @inline(__always)
  static func montgomeryMultiplyVariableTime(
    _ a: U256, _ b: U256, modulus m: U256, mInverse: UInt64
  ) -> U256 {
    let (t, t4) = montgomeryProductBelowTwiceModulus(a, b, modulus: m, mInverse: mInverse)
    let (reduced, borrow) = t.subtractingWithBorrow(m)
    return (borrow != 0 && t4 == 0) ? t : reduced
  }

  /// `(a + b) mod m` for `a, b < m`.
  ///
  /// Variable time: public data only.
  @inline(__always)
  static func modularAddVariableTime(_ a: U256, _ b: U256, modulus m: U256) -> U256 {
    let (sum, carry) = a.addingWithCarry(b)
    let (reduced, borrow) = sum.subtractingWithBorrow(m)
    return (borrow != 0 && carry == 0) ? sum : reduced
  }

  /// `(a - b) mod m` for `a, b < m`.
  ///
  /// Variable time (adds `m` back only when the subtraction borrowed): public data only.
  @inline(__always)
  static func modularSubtractVariableTime(_ a: U256, _ b: U256, modulus m: U256) -> U256 {
    let (difference, borrow) = a.subtractingWithBorrow(b)
    return borrow != 0 ? difference.addingWithCarry(m).0 : difference
  }
}
