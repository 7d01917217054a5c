// Helpers for unsigned big integers stored as little-endian arrays of 64-bit limbs.
//
// Everything here handles public data only (moduli, exponents, signatures), so the helpers
// may branch on values.

/// Little-endian 64-bit limb helpers shared by the RSA and P-256 code.
enum Limbs {
  /// Converts big-endian bytes into `count` little-endian limbs (left-padding with zeros).
  ///
  /// Returns `nil` when the value does not fit in `count` limbs.
  static func fromBigEndian<C: Collection<UInt8>>(_ bytes: C, count: Int) -> [UInt64]? {
    var limbs = [UInt64](repeating: 0, count: count)
    var index = 0  // bit position of the current byte, counted from the least significant end
    for byte in bytes.reversed() {
      let limb = index >> 6
      if limb >= count {
        if byte != 0 { return nil }
      } else {
        limbs[limb] |= UInt64(byte) << UInt64(index & 63)
      }
      index += 8
    }
    return limbs
  }

  /// Returns the bytes without their leading zero bytes.
  static func strippingLeadingZeros(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    let start = bytes.firstIndex(where: { $0 != 0 }) ?? bytes.endIndex
    return bytes[start...]
  }

  /// Number of significant bits of a limb array.
  static func bitCount(_ limbs: [UInt64]) -> Int {
    for index in stride(from: limbs.count - 1, through: 0, by: -1) where limbs[index] != 0 {
      return index * 64 + (64 - limbs[index].leadingZeroBitCount)
    }
    return 0
  }

  /// Three-way comparison of two limb sequences of the same length: -1, 0 or 1.
  static func compare(
    _ lhs: UnsafeBufferPointer<UInt64>, _ rhs: UnsafeBufferPointer<UInt64>
  ) -> Int {
    var index = lhs.count - 1
    while index >= 0 {
      if lhs[index] != rhs[index] { return lhs[index] < rhs[index] ? -1 : 1 }
      index -= 1
    }
    return 0
  }

  /// Three-way comparison of two limb arrays of the same length: -1, 0 or 1.
  static func compare(_ lhs: [UInt64], _ rhs: [UInt64]) -> Int {
    lhs.withUnsafeBufferPointer { l in rhs.withUnsafeBufferPointer { r in compare(l, r) } }
  }

  /// Computes `-n0^-1 mod 2^64` for an odd `n0` (Newton iteration).
  static func negativeInverse(of n0: UInt64) -> UInt64 {
    var inverse = n0  // correct to 3 bits for odd n0
    for _ in 0..<5 {
      inverse = inverse &* (2 &- n0 &* inverse)
    }
    return 0 &- inverse
  }
}
