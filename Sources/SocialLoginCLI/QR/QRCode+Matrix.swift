/// The module grid while it is built: function patterns, data placement, format and version
/// information (ISO/IEC 18004 §7.3, §7.7, §7.9).
extension QRCode {
  /// A square of modules and which of them are function patterns (never masked, never data).
  struct Matrix {
    /// Modules per side.
    let size: Int
    /// The version, for the alignment and version information.
    let version: Int
    /// Row-major modules, `true` for dark.
    var modules: [Bool]
    /// Row-major: whether the module belongs to a function pattern or the format areas.
    var isFunction: [Bool]

    /// An empty grid for `version`.
    init(version: Int) {
      self.version = version
      self.size = 17 + 4 * version
      self.modules = Array(repeating: false, count: size * size)
      self.isFunction = Array(repeating: false, count: size * size)
    }

    /// The module at column `x`, row `y`.
    func dark(_ x: Int, _ y: Int) -> Bool { modules[y * size + x] }

    /// Sets a function module.
    mutating func setFunction(_ x: Int, _ y: Int, _ dark: Bool) {
      modules[y * size + x] = dark
      isFunction[y * size + x] = true
    }

    /// Timing patterns, finders with their separators, alignment patterns, the format areas
    /// (reserved now, written after masking) and the version information.
    mutating func drawFunctionPatterns() {
      for index in 0..<size {
        setFunction(6, index, index % 2 == 0)
        setFunction(index, 6, index % 2 == 0)
      }
      drawFinder(3, 3)
      drawFinder(size - 4, 3)
      drawFinder(3, size - 4)
      let positions = QRCode.alignmentPositions(version: version)
      let last = positions.count - 1
      for (i, x) in positions.enumerated() {
        for (j, y) in positions.enumerated() {
          // The three corners with finders have no alignment pattern.
          if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
          drawAlignment(x, y)
        }
      }
      drawFormatBits(level: .medium, mask: 0)
      drawVersion()
    }

    /// A 7 × 7 finder centred on (x, y) with its light separator.
    private mutating func drawFinder(_ x: Int, _ y: Int) {
      for dy in -4...4 {
        for dx in -4...4 {
          let distance = max(abs(dx), abs(dy))
          let (column, row) = (x + dx, y + dy)
          if column >= 0, column < size, row >= 0, row < size {
            setFunction(column, row, distance != 2 && distance != 4)
          }
        }
      }
    }

    /// A 5 × 5 alignment pattern centred on (x, y).
    private mutating func drawAlignment(_ x: Int, _ y: Int) {
      for dy in -2...2 {
        for dx in -2...2 { setFunction(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
      }
    }

    /// Both copies of the 15-bit format information (level and mask, BCH(15,5) with generator
    /// 0x537, XOR 0x5412), and the dark module.
    mutating func drawFormatBits(level: QRCode.Level, mask: Int) {
      let data = level.formatBits << 3 | mask
      var remainder = data
      for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
      let bits = (data << 10 | remainder) ^ 0x5412
      func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
      for index in 0...5 { setFunction(8, index, bit(index)) }
      setFunction(8, 7, bit(6))
      setFunction(8, 8, bit(7))
      setFunction(7, 8, bit(8))
      for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
      for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
      for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
      setFunction(8, size - 8, true)
    }

    /// Both copies of the 18-bit version information (version 7 and up; BCH(18,6) with
    /// generator 0x1F25).
    private mutating func drawVersion() {
      guard version >= 7 else { return }
      var remainder = version
      for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
      let bits = version << 12 | remainder
      for index in 0..<18 {
        let dark = (bits >> index) & 1 == 1
        let (a, b) = (size - 11 + index % 3, index / 3)
        setFunction(a, b, dark)
        setFunction(b, a, dark)
      }
    }

    /// Places the codewords in the two-column zigzag from the bottom right, skipping function
    /// modules and the vertical timing column; modules left over (remainder bits) stay light.
    mutating func place(_ codewords: [UInt8]) {
      var index = 0
      let total = codewords.count * 8
      var right = size - 1
      while right >= 1 {
        if right == 6 { right = 5 }
        let upward = (right + 1) & 2 == 0
        for vertical in 0..<size {
          for offset in 0..<2 {
            let x = right - offset
            let y = upward ? size - 1 - vertical : vertical
            guard !isFunction[y * size + x], index < total else { continue }
            modules[y * size + x] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
            index += 1
          }
        }
        right -= 2
      }
    }
  }
}
