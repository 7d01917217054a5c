// Branch-free point arithmetic for signing and key derivation, where the scalar is secret.
//
// The verification code in P256Point.swift and P256Curve.swift branches on special cases and on
// scalar digits; that is fine for public data but would leak a private scalar or nonce through
// timing. Everything here runs the same instruction sequence whatever the values.

extension P256JacobianPoint {
  /// `P + Q` for affine `Q` with the mixed-addition formula and no special cases.
  ///
  /// The result is meaningless when `P` is the point at infinity or `P == ±Q`; callers rule
  /// those out by selection (``P256Curve/generatorMultipleConstantTime(_:)``).
  @inline(__always)
  func addingUnchecked(_ other: P256AffinePoint) -> P256JacobianPoint {
    let z1z1 = P256Field.square(z)
    let u2 = P256Field.multiply(other.x, z1z1)
    let s2 = P256Field.multiply(P256Field.multiply(other.y, z), z1z1)
    let h = P256Field.subtract(u2, x)
    let r = P256Field.subtract(s2, y)
    let hh = P256Field.square(h)
    let hhh = P256Field.multiply(h, hh)
    let v = P256Field.multiply(x, hh)
    let x3 = P256Field.subtract(
      P256Field.subtract(P256Field.square(r), hhh), P256Field.add(v, v))
    let y3 = P256Field.subtract(
      P256Field.multiply(r, P256Field.subtract(v, x3)), P256Field.multiply(y, hhh))
    let z3 = P256Field.multiply(z, h)
    return P256JacobianPoint(x: x3, y: y3, z: z3)
  }

  /// `condition == 1 ? a : b` for `condition` in `{0, 1}`, without a branch.
  @inline(__always)
  static func select(_ condition: UInt64, _ a: P256JacobianPoint, _ b: P256JacobianPoint)
    -> P256JacobianPoint
  {
    P256JacobianPoint(
      x: U256.select(condition, a.x, b.x), y: U256.select(condition, a.y, b.y),
      z: U256.select(condition, a.z, b.z))
  }
}

extension P256Curve {
  /// `k * G` for a secret scalar `0 < k < n`, in constant time.
  ///
  /// The same comb as ``addGeneratorMultiple(_:to:)`` (64 windows of 4 bits over
  /// ``generatorTable``), but every window reads all 15 table entries and keeps the right one
  /// by mask, always performs the addition, and chooses between "no digit", "first point" and
  /// "sum" by mask. For `0 < k < n` the partial sums never meet the doubling or inverse cases
  /// (each partial sum is smaller than the multiple being added, and no sum reaches `n`).
  static func generatorMultipleConstantTime(_ k: U256) -> P256JacobianPoint {
    var result = P256JacobianPoint.infinity
    generatorTable.withUnsafeBufferPointer { table in
      for window in 0..<64 {
        let digit = UInt64(truncatingIfNeeded: k.nibble(window))
        var x = U256.zero
        var y = U256.zero
        for index in 0..<15 {
          let difference = UInt64(index + 1) ^ digit
          let hit = ((difference | (0 &- difference)) >> 63) ^ 1
          let entry = table[window * 15 + index]
          x = U256.select(hit, entry.x, x)
          y = U256.select(hit, entry.y, y)
        }
        let entry = P256AffinePoint(x: x, y: y)
        let sum = result.addingUnchecked(entry)
        let added = P256JacobianPoint.select(result.z.isZeroBit, P256JacobianPoint(entry), sum)
        let digitIsZero = ((digit | (0 &- digit)) >> 63) ^ 1
        result = P256JacobianPoint.select(digitIsZero, result, added)
      }
    }
    return result
  }

  /// The canonical affine coordinates of a Jacobian point that is not the point at infinity.
  ///
  /// Inversion is Fermat's `z^(p-2)` with a fixed exponent, so it takes the same time for every
  /// `z`.
  static func affineCoordinates(_ point: P256JacobianPoint) -> (x: U256, y: U256) {
    let zInverse = P256Field.inverse(point.z)
    let zInverse2 = P256Field.square(zInverse)
    let zInverse3 = P256Field.multiply(zInverse2, zInverse)
    return (
      P256Field.fromMontgomery(P256Field.multiply(point.x, zInverse2)),
      P256Field.fromMontgomery(P256Field.multiply(point.y, zInverse3))
    )
  }
}
