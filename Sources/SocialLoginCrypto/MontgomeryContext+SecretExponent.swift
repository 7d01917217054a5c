// Modular exponentiation and reduction for private values (RSA signing, primality tests).

extension MontgomeryContext {
  /// `base^exponent mod n` in normal form, for `base < n`, in time that depends only on
  /// `exponentBitCount` and the modulus length.
  ///
  /// Fixed 4-bit windows from the top: every window squares four times, reads all 16 table
  /// entries and keeps the one the exponent's digit names by mask, and multiplies. No branch
  /// and no memory address depends on the exponent or the base.
  ///
  /// - Parameters:
  ///   - base: `limbCount` limbs, smaller than the modulus.
  ///   - exponent: Little-endian limbs; bits at and above `exponentBitCount` are ignored.
  ///   - exponentBitCount: How many exponent bits to process (public: the exponent's size).
  func power(_ base: [UInt64], exponent: [UInt64], exponentBitCount: Int) -> [UInt64] {
    let s = limbCount
    var result = [UInt64](repeating: 0, count: s)
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 20 * s + 1) { buffer in
      let table = buffer.baseAddress.unsafelyUnwrapped  // 16 entries of s limbs
      let accumulator = table + 16 * s
      let selected = accumulator + s
      let scratch = selected + s  // 2s + 1 limbs
      modulus.withUnsafeBufferPointer { nBuffer in
        rSquared.withUnsafeBufferPointer { r2Buffer in
          base.withUnsafeBufferPointer { baseBuffer in
            let n = nBuffer.baseAddress.unsafelyUnwrapped
            let r2 = r2Buffer.baseAddress.unsafelyUnwrapped
            let n0 = n0Inverse
            // table[0] = R mod n (one), table[1] = base * R, table[i] = base^i * R.
            selected.update(repeating: 0, count: s)
            selected[0] = 1
            Self.multiply(
              selected, r2, into: table, scratch: scratch, modulus: n, count: s, n0Inverse: n0)
            Self.multiply(
              baseBuffer.baseAddress.unsafelyUnwrapped, r2, into: table + s, scratch: scratch,
              modulus: n, count: s, n0Inverse: n0)
            for index in 2..<16 {
              Self.multiply(
                table + (index - 1) * s, table + s, into: table + index * s, scratch: scratch,
                modulus: n, count: s, n0Inverse: n0)
            }
            accumulator.update(from: table, count: s)
            let windows = (exponentBitCount + 3) / 4
            var window = windows - 1
            while window >= 0 {
              for _ in 0..<4 {
                Self.square(
                  accumulator, into: accumulator, scratch: scratch, modulus: n, count: s,
                  n0Inverse: n0)
              }
              let bit = window * 4
              var digit = (bit >> 6) < exponent.count ? exponent[bit >> 6] >> UInt64(bit & 63) : 0
              digit &= 0xF
              if bit + 4 > exponentBitCount {
                digit &= (1 << UInt64(exponentBitCount - bit)) - 1
              }
              selected.update(repeating: 0, count: s)
              for index in 0..<16 {
                let difference = UInt64(index) ^ digit
                let mask = 0 &- (((difference | (0 &- difference)) >> 63) ^ 1)
                let entry = table + index * s
                for k in 0..<s {
                  selected[k] |= entry[k] & mask
                }
              }
              Self.multiply(
                accumulator, selected, into: accumulator, scratch: scratch, modulus: n, count: s,
                n0Inverse: n0)
              window -= 1
            }
            // Leave the Montgomery domain: multiply by 1.
            selected.update(repeating: 0, count: s)
            selected[0] = 1
            result.withUnsafeMutableBufferPointer { out in
              Self.multiply(
                accumulator, selected, into: out.baseAddress.unsafelyUnwrapped, scratch: scratch,
                modulus: n, count: s, n0Inverse: n0)
            }
          }
        }
      }
    }
    return result
  }

  /// `value mod n` in normal form for any `value < n * R` (at most `2 * limbCount` limbs), in
  /// time that depends only on the lengths: one Montgomery reduction (`value * R^-1`), then one
  /// product with `R^2`.
  func reduce(_ value: [UInt64]) -> [UInt64] {
    let s = limbCount
    precondition(value.count <= 2 * s, "MontgomeryContext.reduce needs a value below n * R")
    var t = value + [UInt64](repeating: 0, count: 2 * s - value.count)
    var low = [UInt64](repeating: 0, count: s)
    modulus.withUnsafeBufferPointer { n in
      t.withUnsafeMutableBufferPointer { t in
        low.withUnsafeMutableBufferPointer { low in
          // The square's reduction and its masked subtraction (both constant time).
          let t = t.baseAddress.unsafelyUnwrapped
          let n = n.baseAddress.unsafelyUnwrapped
          let top = Self.reduceBelowTwiceModulus(t, modulus: n, count: s, n0Inverse: n0Inverse)
          Self.reduceOnce(
            t + s, top: top, modulus: n, count: s, into: low.baseAddress.unsafelyUnwrapped)
        }
      }
    }
    // low = value * R^-1 mod n; multiply by R^2 (Montgomery) to get value mod n.
    return montgomeryProduct(low, rSquared)
  }

  /// The Montgomery product `a * b * R^-1 mod n` of two values below `n`.
  func montgomeryProduct(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
    let s = limbCount
    var result = [UInt64](repeating: 0, count: s)
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: s + 1) { scratch in
      modulus.withUnsafeBufferPointer { n in
        a.withUnsafeBufferPointer { a in
          b.withUnsafeBufferPointer { b in
            result.withUnsafeMutableBufferPointer { out in
              Self.multiply(
                a.baseAddress.unsafelyUnwrapped, b.baseAddress.unsafelyUnwrapped,
                into: out.baseAddress.unsafelyUnwrapped,
                scratch: scratch.baseAddress.unsafelyUnwrapped,
                modulus: n.baseAddress.unsafelyUnwrapped, count: s, n0Inverse: n0Inverse)
            }
          }
        }
      }
    }
    return result
  }
}
