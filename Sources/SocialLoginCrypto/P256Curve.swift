/// The field arithmetic of this file: variable time (public keys, signatures and the generator).
private typealias Field = P256Field.VariableTime
/// The scalar arithmetic of this file: variable time (the signature's `r` and `s`).
private typealias Scalar = P256Scalar.VariableTime

/// The NIST P-256 (secp256r1) curve `y^2 = x^3 - 3x + b` and ECDSA verification on it.
///
/// Everything in this file handles public data and is variable time: key validation, the
/// generator table, `u1 * G + u2 * Q` and the final comparison. Signing uses
/// ``generatorMultipleConstantTime(_:)`` and ``affineCoordinates(_:)`` instead.
enum P256Curve {
  /// The coefficient `b`, canonical (not Montgomery) form.
  static let b = U256(
    l0: 0x3BCE_3C3E_27D2_604B, l1: 0x651D_06B0_CC53_B0F6, l2: 0xB3EB_BD55_7698_86BC,
    l3: 0x5AC6_35D8_AA3A_93E7)
  /// The generator's x, canonical form.
  static let generatorX = U256(
    l0: 0xF4A1_3945_D898_C296, l1: 0x7703_7D81_2DEB_33A0, l2: 0xF8BC_E6E5_63A4_40F2,
    l3: 0x6B17_D1F2_E12C_4247)
  /// The generator's y, canonical form.
  static let generatorY = U256(
    l0: 0xCBB6_4068_37BF_51F5, l1: 0x2BCE_3357_6B31_5ECE, l2: 0x8EE7_EB4A_7C0F_9E16,
    l3: 0x4FE3_42E2_FE1A_7F9B)

  /// Whether canonical `(x, y)`, both `< p`, satisfies the curve equation.
  static func isOnCurve(x: U256, y: U256) -> Bool {
    let xm = Field.toMontgomery(x)
    let ym = Field.toMontgomery(y)
    let x3 = Field.multiply(Field.square(xm), xm)
    let threeX = Field.add(xm, Field.add(xm, xm))
    let rhs = Field.add(Field.subtract(x3, threeX), Field.toMontgomery(b))
    return Field.square(ym) == rhs
  }

  /// Fixed-base comb table for `G`: `table[16 * i + j - 1] = j * 16^i * G` (affine),
  /// `i` in `0..<64`, `j` in `1...15`. 960 points, 61 KiB, built once on first use.
  ///
  /// With it `u * G` is at most 64 mixed additions and no doublings.
  static let generatorTable: [P256AffinePoint] = {
    var points: [P256JacobianPoint] = []
    points.reserveCapacity(64 * 15)
    var base = P256JacobianPoint(
      x: Field.toMontgomery(generatorX), y: Field.toMontgomery(generatorY),
      z: P256Field.one)
    for _ in 0..<64 {
      var multiple = base
      points.append(multiple)
      for _ in 2...15 {
        multiple = multiple.adding(base)
        points.append(multiple)
      }
      base = base.doubled().doubled().doubled().doubled()
    }
    return P256JacobianPoint.batchToAffine(points)
  }()

  /// `u * G` accumulated onto `point` using ``generatorTable``.
  static func addGeneratorMultiple(_ u: U256, to point: P256JacobianPoint) -> P256JacobianPoint {
    var result = point
    generatorTable.withUnsafeBufferPointer { table in
      for window in 0..<64 {
        let digit = u.nibble(window)
        if digit != 0 {
          result = result.adding(table[window * 15 + digit - 1])
        }
      }
    }
    return result
  }

  /// `k * P` by width-5 wNAF (odd multiples `P, 3P, …, 15P`): 256 doublings, ~43 additions.
  static func multiply(_ point: P256JacobianPoint, by k: U256) -> P256JacobianPoint {
    withUnsafeTemporaryAllocation(of: Int8.self, capacity: 260) { digits in
      let count = wNAF(k, window: 5, into: digits)
      return withUnsafeTemporaryAllocation(of: P256JacobianPoint.self, capacity: 8) { odd in
        let twice = point.doubled()
        odd.initialize(repeating: point)
        for index in 1..<8 {
          odd[index] = odd[index - 1].adding(twice)
        }
        var result = P256JacobianPoint.infinity
        var index = count - 1
        while index >= 0 {
          result = result.doubled()
          let digit = Int(digits[index])
          if digit > 0 {
            result = result.adding(odd[digit >> 1])
          } else if digit < 0 {
            result = result.adding(odd[(-digit) >> 1].negated)
          }
          index -= 1
        }
        return result
      }
    }
  }

  /// Writes the width-`window` non-adjacent form of `k` (least significant digit first) and
  /// returns the number of digits (at most 257).
  static func wNAF(_ k: U256, window: Int, into digits: UnsafeMutableBufferPointer<Int8>) -> Int {
    var value = k
    var top: UInt64 = 0  // a 257th bit, needed after adding back a negative digit
    let modulus = 1 << window
    let mask = UInt64(modulus - 1)
    var count = 0
    while !value.isZero || top != 0 {
      var digit = 0
      if value.isOdd {
        digit = Int(value.l0 & mask)
        if digit >= modulus >> 1 {
          digit -= modulus
        }
        if digit > 0 {
          value.l0 -= UInt64(digit)  // clears low bits, cannot borrow
        } else {
          let (sum, carry) = value.addingReportingCarry(
            U256(l0: UInt64(-digit), l1: 0, l2: 0, l3: 0))
          value = sum
          top += carry ? 1 : 0
        }
      }
      digits[count] = Int8(digit)
      count += 1
      value = value.shiftedRightOne(topBit: top)
      top = 0
    }
    return count
  }

  /// ECDSA verification core for canonical `r, s` in `[1, n-1]` and digest integer `e`
  /// (already truncated to 256 bits), public key `q` (Montgomery-form affine).
  static func verify(r: U256, s: U256, e: U256, publicKey q: P256AffinePoint) -> Bool {
    let w = Scalar.inverseMontgomery(s)  // s^-1 * R mod n
    // Montgomery products of a canonical value with w = s^-1 * R give canonical results.
    let u1 = Scalar.multiply(P256Scalar.reduce(e), w)
    let u2 = Scalar.multiply(r, w)
    var point = multiply(P256JacobianPoint(q), by: u2)
    point = addGeneratorMultiple(u1, to: point)
    if point.isInfinity { return false }
    // x(R) = X / Z^2; compare X with r * Z^2 (and (r + n) * Z^2 when r + n < p), no inversion.
    let z2 = Field.square(point.z)
    if Field.multiply(Field.toMontgomery(r), z2) == point.x { return true }
    let (rPlusN, carry) = r.addingReportingCarry(P256Scalar.order)
    if !carry && rPlusN.isLess(than: P256Field.prime) {
      return Field.multiply(Field.toMontgomery(rPlusN), z2) == point.x
    }
    return false
  }
}
