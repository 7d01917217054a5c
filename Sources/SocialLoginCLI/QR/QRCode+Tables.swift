/// The standard's tables for versions 1 through 10 (ISO/IEC 18004 Tables 9 and E.1).
extension QRCode {
  /// How one version and level splits its codewords into Reed-Solomon blocks.
  struct BlockLayout: Sendable {
    /// Error correction codewords in every block.
    let eccPerBlock: Int
    /// Blocks with `shortData` data codewords, then blocks with `shortData + 1`.
    let shortBlocks: Int
    /// Data codewords in each short block.
    let shortData: Int
    /// Blocks with one more data codeword, which come after the short ones.
    let longBlocks: Int

    /// All data codewords.
    var dataCodewords: Int { shortBlocks * shortData + longBlocks * (shortData + 1) }
    /// All blocks.
    var blocks: Int { shortBlocks + longBlocks }
  }

  /// Table 9 rows for versions 1...10, per level in the order L, M, Q, H:
  /// (ecc codewords per block, short blocks, data per short block, long blocks).
  private static let layouts: [[(Int, Int, Int, Int)]] = [
    [(7, 1, 19, 0), (10, 1, 16, 0), (13, 1, 13, 0), (17, 1, 9, 0)],
    [(10, 1, 34, 0), (16, 1, 28, 0), (22, 1, 22, 0), (28, 1, 16, 0)],
    [(15, 1, 55, 0), (26, 1, 44, 0), (18, 2, 17, 0), (22, 2, 13, 0)],
    [(20, 1, 80, 0), (18, 2, 32, 0), (26, 2, 24, 0), (16, 4, 9, 0)],
    [(26, 1, 108, 0), (24, 2, 43, 0), (18, 2, 15, 2), (22, 2, 11, 2)],
    [(18, 2, 68, 0), (16, 4, 27, 0), (24, 4, 19, 0), (28, 4, 15, 0)],
    [(20, 2, 78, 0), (18, 4, 31, 0), (18, 2, 14, 4), (26, 4, 13, 1)],
    [(24, 2, 97, 0), (22, 2, 38, 2), (22, 4, 18, 2), (26, 4, 14, 2)],
    [(30, 2, 116, 0), (22, 3, 36, 2), (20, 4, 16, 4), (24, 4, 12, 4)],
    [(18, 2, 68, 2), (26, 4, 43, 1), (24, 6, 19, 2), (28, 6, 15, 2)],
  ]

  /// The block layout of `version` (1...``maximumVersion``) at `level`.
  static func layout(version: Int, level: Level) -> BlockLayout {
    let index: Int =
      switch level {
      case .low: 0
      case .medium: 1
      case .quartile: 2
      case .high: 3
      }
    let row = layouts[version - 1][index]
    return BlockLayout(eccPerBlock: row.0, shortBlocks: row.1, shortData: row.2, longBlocks: row.3)
  }

  /// Bits of the byte-mode character count: 8 up to version 9, 16 from version 10.
  static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

  /// How many bytes byte mode holds in `version` at `level`.
  static func byteCapacity(version: Int, level: Level) -> Int {
    (layout(version: version, level: level).dataCodewords * 8 - 4 - countBits(version: version))
      / 8
  }

  /// The smallest version whose byte capacity at `level` holds `count` bytes, if any.
  static func smallestVersion(for count: Int, level: Level) -> Int? {
    (1...maximumVersion).first { byteCapacity(version: $0, level: level) >= count }
  }

  /// Centre coordinates of the alignment patterns (Annex E), the same for rows and columns.
  static func alignmentPositions(version: Int) -> [Int] {
    switch version {
    case 1: []
    case 2...6: [6, 10 + 4 * version]
    case 7: [6, 22, 38]
    case 8: [6, 24, 42]
    case 9: [6, 26, 46]
    default: [6, 28, 50]
    }
  }
}
