// Concrete conversions between `UInt64` and `UInt128` for the multi-precision kernels.
//
// The standard library converts between integer types through generic `BinaryInteger`
// initializers. Optimized builds specialize those into a single zero-extension or truncation,
// but debug builds (`swift build`, `swift test`) run them generically, through witness tables,
// on every limb of every product: most of a debug-build verification's time went there. These
// overloads are more specific than the generic ones, so the kernels pick them up unchanged; they
// compile to the same instruction in optimized builds and to one small call in debug builds.

extension UInt128 {
  /// Zero-extends `value` (the generic `init(_:)`, without the generic dispatch).
  @inline(__always)
  init(_ value: UInt64) {
    self.init(_low: value, _high: 0)
  }
}

extension UInt64 {
  /// The low 64 bits of `value` (the generic `init(truncatingIfNeeded:)`, without the generic
  /// dispatch).
  @inline(__always)
  init(truncatingIfNeeded value: UInt128) {
    self = value._low
  }
}
