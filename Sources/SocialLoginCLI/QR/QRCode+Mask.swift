/// The eight data masks and the penalty rules that choose one (ISO/IEC 18004 §7.8).
extension QRCode.Matrix {
  /// Whether mask `mask` inverts the module at column `x`, row `y`.
  static func masks(_ mask: Int, _ x: Int, _ y: Int) -> Bool {
    switch mask {
    case 0: (x + y) % 2 == 0
    case 1: y % 2 == 0
    case 2: x % 3 == 0
    case 3: (x + y) % 3 == 0
    case 4: (x / 3 + y / 2) % 2 == 0
    case 5: x * y % 2 + x * y % 3 == 0
    case 6: (x * y % 2 + x * y % 3) % 2 == 0
    default: ((x + y) % 2 + x * y % 3) % 2 == 0
    }
  }

  /// Inverts the data modules that `mask` selects (applying it twice undoes it).
  mutating func apply(mask: Int) {
    for y in 0..<size {
      for x in 0..<size where !isFunction[y * size + x] && Self.masks(mask, x, y) {
        modules[y * size + x].toggle()
      }
    }
  }

  /// The mask with the lowest penalty, each tried with its format information in place; the
  /// lowest-numbered one on a tie.
  func bestMask(level: QRCode.Level) -> Int {
    var best = 0
    var bestPenalty = Int.max
    for mask in 0..<8 {
      var candidate = self
      candidate.apply(mask: mask)
      candidate.drawFormatBits(level: level, mask: mask)
      let penalty = candidate.penalty()
      if penalty < bestPenalty {
        best = mask
        bestPenalty = penalty
      }
    }
    return best
  }

  /// The sum of the four penalty scores: runs of five or more (3 + extra), 2 × 2 blocks (3),
  /// finder-like 1:1:3:1:1 patterns with four light modules on one side (40), and the
  /// distance of the dark share from 50 % (10 per 5 %).
  func penalty() -> Int {
    var score = 0
    for line in 0..<size {
      score += runPenalty((0..<size).map { dark($0, line) })
      score += runPenalty((0..<size).map { dark(line, $0) })
      score += finderPenalty((0..<size).map { dark($0, line) })
      score += finderPenalty((0..<size).map { dark(line, $0) })
    }
    for y in 0..<size - 1 {
      for x in 0..<size - 1 {
        let color = dark(x, y)
        if dark(x + 1, y) == color, dark(x, y + 1) == color, dark(x + 1, y + 1) == color {
          score += 3
        }
      }
    }
    let darkCount = modules.count { $0 }
    let percent = darkCount * 100 / modules.count
    let below = percent / 5 * 5
    score += min(abs(below - 50), abs(below + 5 - 50)) / 5 * 10
    return score
  }

  /// Rule 1 for one row or column.
  private func runPenalty(_ line: [Bool]) -> Int {
    var score = 0
    var run = 1
    for index in 1...line.count {
      if index < line.count, line[index] == line[index - 1] {
        run += 1
        continue
      }
      if run >= 5 { score += 3 + run - 5 }
      run = 1
    }
    return score
  }

  /// Rule 3 for one row or column: dark-light-dark-dark-dark-light-dark with four light
  /// modules before or after it, inside the symbol.
  private func finderPenalty(_ line: [Bool]) -> Int {
    let core: [Bool] = [true, false, true, true, true, false, true]
    let light = [Bool](repeating: false, count: 4)
    let before = light + core
    let after = core + light
    var score = 0
    guard line.count >= 11 else { return 0 }
    for start in 0...(line.count - 11) {
      let window = Array(line[start..<start + 11])
      if window == before { score += 40 }
      if window == after { score += 40 }
    }
    return score
  }
}
