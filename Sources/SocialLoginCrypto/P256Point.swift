// Point arithmetic for verification and the generator table: public data only, so it uses the
// variable-time field arithmetic and branches on special cases. Signing and key derivation use
// the constant-time code in P256Point+ConstantTime.swift.

/// The field arithmetic of this file: variable time (public points only).
private typealias Field = P256Field.VariableTime

/// A P-256 point in affine coordinates, Montgomery-form field elements.
struct P256AffinePoint: Sendable {
  var x: U256
  var y: U256
}

/// A P-256 point in Jacobian coordinates `(X, Y, Z)` for `(X/Z^2, Y/Z^3)`, Montgomery form.
///
/// `Z == 0` is the point at infinity. ``doubled()`` and the `adding` methods branch on the special
/// cases (doubling inside an addition, infinity) and use ``P256Field/VariableTime``, which is
/// acceptable because verification and the generator table handle public data only; secret
/// scalars go through ``addingUnchecked(_:)`` and ``select(_:_:_:)`` instead.
struct P256JacobianPoint: Sendable {
  var x: U256
  var y: U256
  var z: U256

  static let infinity = P256JacobianPoint(x: P256Field.one, y: P256Field.one, z: .zero)

  @inline(__always)
  var isInfinity: Bool { z.isZero }

  @inline(__always)
  init(x: U256, y: U256, z: U256) {
    self.x = x
    self.y = y
    self.z = z
  }

  @inline(__always)
  init(_ affine: P256AffinePoint) {
    self.init(x: affine.x, y: affine.y, z: P256Field.one)
  }

  /// `-P`.
  @inline(__always)
  var negated: P256JacobianPoint {
    P256JacobianPoint(x: x, y: Field.negate(y), z: z)
  }

  /// `2P` ("dbl-2001-b", `a = -3`): 3M + 5S.
  func doubled() -> P256JacobianPoint {
    if isInfinity { return self }
    let delta = Field.square(z)
    let gamma = Field.square(y)
    let beta = Field.multiply(x, gamma)
    var alpha = Field.multiply(Field.subtract(x, delta), Field.add(x, delta))
    alpha = Field.add(alpha, Field.add(alpha, alpha))
    let beta2 = Field.add(beta, beta)
    let beta4 = Field.add(beta2, beta2)
    let beta8 = Field.add(beta4, beta4)
    let x3 = Field.subtract(Field.square(alpha), beta8)
    let yPlusZ = Field.add(y, z)
    let z3 = Field.subtract(Field.subtract(Field.square(yPlusZ), gamma), delta)
    let gamma2 = Field.square(gamma)
    let gamma2x2 = Field.add(gamma2, gamma2)
    let gamma2x4 = Field.add(gamma2x2, gamma2x2)
    let gamma2x8 = Field.add(gamma2x4, gamma2x4)
    let y3 = Field.subtract(
      Field.multiply(alpha, Field.subtract(beta4, x3)), gamma2x8)
    return P256JacobianPoint(x: x3, y: y3, z: z3)
  }

  /// `P + Q` for Jacobian `Q` ("add-2007-bl" without the factor 2): 12M + 4S.
  func adding(_ other: P256JacobianPoint) -> P256JacobianPoint {
    if isInfinity { return other }
    if other.isInfinity { return self }
    let z1z1 = Field.square(z)
    let z2z2 = Field.square(other.z)
    let u1 = Field.multiply(x, z2z2)
    let u2 = Field.multiply(other.x, z1z1)
    let s1 = Field.multiply(Field.multiply(y, other.z), z2z2)
    let s2 = Field.multiply(Field.multiply(other.y, z), z1z1)
    let h = Field.subtract(u2, u1)
    let r = Field.subtract(s2, s1)
    if h.isZero {
      return r.isZero ? doubled() : .infinity
    }
    return Self.sum(u1: u1, s1: s1, h: h, r: r, z1z2: Field.multiply(z, other.z))
  }

  /// `P + Q` for affine `Q` (mixed addition): 8M + 3S.
  func adding(_ other: P256AffinePoint) -> P256JacobianPoint {
    if isInfinity { return P256JacobianPoint(other) }
    let z1z1 = Field.square(z)
    let u2 = Field.multiply(other.x, z1z1)
    let s2 = Field.multiply(Field.multiply(other.y, z), z1z1)
    let h = Field.subtract(u2, x)
    let r = Field.subtract(s2, y)
    if h.isZero {
      return r.isZero ? doubled() : .infinity
    }
    return Self.sum(u1: x, s1: y, h: h, r: r, z1z2: z)
  }

  /// The end both additions share ("add-2007-bl"): `u1` and `s1` are this point's x and y on
  /// the common denominator, `h = u2 - u1`, `r = s2 - s1`, and `z1z2` the product of the two
  /// z coordinates (this point's z alone when the other is affine).
  @inline(__always)
  private static func sum(u1: U256, s1: U256, h: U256, r: U256, z1z2: U256)
    -> P256JacobianPoint
  {
    let hh = Field.square(h)
    let hhh = Field.multiply(h, hh)
    let v = Field.multiply(u1, hh)
    let x3 = Field.subtract(
      Field.subtract(Field.square(r), hhh), Field.add(v, v))
    let y3 = Field.subtract(
      Field.multiply(r, Field.subtract(v, x3)), Field.multiply(s1, hhh))
    return P256JacobianPoint(x: x3, y: y3, z: Field.multiply(z1z2, h))
  }
}

extension P256JacobianPoint {
  /// Converts many points to affine with one field inversion (Montgomery's batch trick).
  ///
  /// None of the points may be the point at infinity.
  static func batchToAffine(_ points: [P256JacobianPoint]) -> [P256AffinePoint] {
    guard !points.isEmpty else { return [] }
    var prefix = [U256](repeating: P256Field.one, count: points.count)
    var running = P256Field.one
    for (index, point) in points.enumerated() {
      prefix[index] = running
      running = Field.multiply(running, point.z)
    }
    var inverse = Field.inverse(running)  // 1 / (z0 * z1 * ... )
    var result = [P256AffinePoint](
      repeating: P256AffinePoint(x: .zero, y: .zero), count: points.count)
    for index in stride(from: points.count - 1, through: 0, by: -1) {
      let point = points[index]
      let zInverse = Field.multiply(inverse, prefix[index])
      inverse = Field.multiply(inverse, point.z)
      let zInverse2 = Field.square(zInverse)
      let zInverse3 = Field.multiply(zInverse2, zInverse)
      result[index] = P256AffinePoint(
        x: Field.multiply(point.x, zInverse2), y: Field.multiply(point.y, zInverse3))
    }
    return result
  }
}
