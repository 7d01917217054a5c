/// Montgomery arithmetic modulo an odd multi-limb modulus `n` (the RSA modulus).
///
/// Values are little-endian arrays of `limbCount` 64-bit limbs, fully reduced (`< n`).
/// `R = 2^(64 * limbCount)`. The hot routine, ``multiply(_:_:into:scratch:)``, works on caller
/// provided buffers and never allocates. Only public data passes through here (verification), so
/// the final conditional subtraction branches.
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
  private static func computeRSquared(_ modulus: [UInt64]) -> [UInt64] {
    let count = modulus.count
    var value = [UInt64](repeating: 0, count: count)
    value[0] = 1
    value.withUnsafeMutableBufferPointer { v in
      modulus.withUnsafeBufferPointer { n in
        for _ in 0..<(128 * count) {
          // v = 2v; the top bit shifted out is `carry`.
          var carry: UInt64 = 0
          for i in 0..<count {
            let limb = v[i]
            v[i] = (limb << 1) | carry
            carry = limb >> 63
          }
          if carry != 0 || Limbs.compare(UnsafeBufferPointer(v), n) >= 0 {
            subtract(v, n)
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
  /// `a` and `b` must be `< n`; `result` may alias either. `scratch` needs `limbCount + 2` limbs.
  func multiply(
    _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
    into result: UnsafeMutablePointer<UInt64>, scratch t: UnsafeMutablePointer<UInt64>
  ) {
    modulus.withUnsafeBufferPointer { n in
      Self.multiply(
        a, b, into: result, scratch: t, modulus: n.baseAddress.unsafelyUnwrapped,
        count: n.count, n0Inverse: n0Inverse)
    }
  }

  /// The CIOS kernel, on raw pointers.
  static func multiply(
    _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
    into result: UnsafeMutablePointer<UInt64>, scratch t: UnsafeMutablePointer<UInt64>,
    modulus n: UnsafePointer<UInt64>, count s: Int, n0Inverse: UInt64
  ) {
    t.update(repeating: 0, count: s + 1)
    for i in 0..<s {
      let bi = b[i]
      // j = 0: the reduction factor m makes the low limb vanish.
      let (h0, l0) = a[0].multipliedFullWidth(by: bi)
      let (u0, o0) = l0.addingReportingOverflow(t[0])
      var c1 = h0 &+ (o0 ? 1 : 0)
      let m = u0 &* n0Inverse
      let (h1, l1) = m.multipliedFullWidth(by: n[0])
      let (_, o1) = l1.addingReportingOverflow(u0)
      var c2 = h1 &+ (o1 ? 1 : 0)
      var j = 1
      while j < s {
        // u = t[j] + a[j] * bi + c1
        let (h1, l1) = a[j].multipliedFullWidth(by: bi)
        let (x1, p1) = l1.addingReportingOverflow(t[j])
        let (x2, p2) = x1.addingReportingOverflow(c1)
        c1 = h1 &+ (p1 ? 1 : 0) &+ (p2 ? 1 : 0)
        // t[j-1] = u + m * n[j] + c2
        let (h2, l2) = m.multipliedFullWidth(by: n[j])
        let (y1, q1) = l2.addingReportingOverflow(x2)
        let (y2, q2) = y1.addingReportingOverflow(c2)
        c2 = h2 &+ (q1 ? 1 : 0) &+ (q2 ? 1 : 0)
        t[j - 1] = y2
        j += 1
      }
      let (z1, r1) = t[s].addingReportingOverflow(c1)
      let (z2, r2) = z1.addingReportingOverflow(c2)
      t[s - 1] = z2
      t[s] = (r1 ? 1 : 0) &+ (r2 ? 1 : 0)
    }
    // t < 2n: subtract n once if needed.
    var needsSubtraction = t[s] != 0
    if !needsSubtraction {
      needsSubtraction = true
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
      var borrow = false
      for k in 0..<s {
        let (d1, o1) = t[k].subtractingReportingOverflow(n[k])
        let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
        result[k] = d2
        borrow = o1 || o2
      }
    } else {
      result.update(from: t, count: s)
    }
  }
}
