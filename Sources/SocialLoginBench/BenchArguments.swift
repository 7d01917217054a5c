/// The `--name value` command lines of the bench's workers and of the benches that start them,
/// read by one rule: every name takes exactly one value, the pairs are handed over in order,
/// and one pair refused refuses the whole line (the caller then prints its usage).
enum BenchArguments {
  /// Hands each `--name value` pair of `arguments` to `apply`, in order.
  ///
  /// - Parameters:
  ///   - allowsEmptyValues: Whether an empty value may reach `apply`; the chaos bench and its
  ///     workers refuse one, since an empty store or subject is always a mistake there.
  ///   - apply: Takes a pair into the options; `false` for a name it does not know or a value
  ///     it cannot use.
  /// - Returns: `false` when a name lacks its value (or has a refused empty one) or `apply`
  ///   refused a pair; the pairs after it are not read.
  static func forEachPair(
    _ arguments: [String], allowsEmptyValues: Bool = true,
    _ apply: (_ name: String, _ value: String) -> Bool
  ) -> Bool {
    var iterator = arguments.makeIterator()
    while let name = iterator.next() {
      guard let value = iterator.next(), allowsEmptyValues || !value.isEmpty,
        apply(name, value)
      else { return false }
    }
    return true
  }

  /// `value` as a whole number of milliseconds of at least `minimum`, else `nil`.
  static func milliseconds(_ value: String, atLeast minimum: Int = 1) -> Duration? {
    guard let milliseconds = Int(value), milliseconds >= minimum else { return nil }
    return .milliseconds(milliseconds)
  }

  /// Sets `duration` to `value` milliseconds (see ``milliseconds(_:atLeast:)``), for a `case`
  /// of an `apply` closure; `false`, leaving it as it was, when `value` is not such a number.
  static func set(
    _ duration: inout Duration, milliseconds value: String, atLeast minimum: Int = 1
  ) -> Bool {
    guard let parsed = milliseconds(value, atLeast: minimum) else { return false }
    duration = parsed
    return true
  }
}
