/// Comparisons whose running time does not depend on where two byte strings differ.
public enum ConstantTime {
  /// Returns whether `lhs` and `rhs` hold the same bytes, in time that depends only on their lengths.
  ///
  /// Use it for every MAC, signature and secret comparison: an early-exit `==` leaks, through
  /// timing, how many leading bytes of a forged value are right.
  ///
  /// ```swift
  /// let ok = ConstantTime.equals(expectedMAC, receivedMAC)
  /// ```
  @inlinable
  public static func equals<A: Collection<UInt8>, B: Collection<UInt8>>(_ lhs: A, _ rhs: B) -> Bool
  {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for (a, b) in zip(lhs, rhs) {
      difference |= a ^ b
    }
    return difference == 0
  }
}
