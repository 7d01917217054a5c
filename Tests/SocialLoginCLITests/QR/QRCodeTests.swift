import Testing

@testable import SocialLoginCLI

/// The encoder's choices against the standard's tables, and what it does with too much data.
@Suite struct QRCodeTests {
  /// ISO/IEC 18004 Table 7, byte mode, versions 1-10, levels L, M, Q, H.
  static let byteCapacities: [[Int]] = [
    [17, 14, 11, 7], [32, 26, 20, 14], [53, 42, 32, 24], [78, 62, 46, 34],
    [106, 84, 60, 44], [134, 106, 74, 58], [154, 122, 86, 64], [192, 152, 108, 84],
    [230, 180, 130, 98], [271, 213, 151, 119],
  ]

  @Test func byteCapacityMatchesTheStandardsTable() {
    let levels: [QRCode.Level] = [.low, .medium, .quartile, .high]
    for version in 1...10 {
      for (index, level) in levels.enumerated() {
        #expect(
          QRCode.byteCapacity(version: version, level: level)
            == Self.byteCapacities[version - 1][index], "version \(version) \(level)")
      }
    }
  }

  @Test func picksTheSmallestVersionThatHoldsTheData() throws {
    #expect(try QRCode(bytes: Array(repeating: 65, count: 14)).version == 1)
    #expect(try QRCode(bytes: Array(repeating: 65, count: 15)).version == 2)
    #expect(try QRCode(bytes: Array(repeating: 65, count: 213)).version == 10)
    #expect(try QRCode(bytes: Array(repeating: 65, count: 17), level: .low).version == 1)
    let code = try QRCode(text: "https://example.com/device")
    #expect(code.size == 17 + 4 * code.version)
    #expect(code.modules.count == code.size * code.size)
  }

  @Test func dataTooLongForVersion10IsATypedError() {
    #expect(throws: QRCode.EncodingError.dataTooLong(bytes: 214, capacity: 213)) {
      try QRCode(bytes: Array(repeating: 0x41, count: 214))
    }
    #expect(throws: QRCode.EncodingError.dataTooLong(bytes: 100_000, capacity: 271)) {
      try QRCode(bytes: Array(repeating: 0xFF, count: 100_000), level: .low)
    }
  }

  @Test func emptyDataStillMakesAVersion1Symbol() throws {
    let code = try QRCode(bytes: [])
    #expect(code.version == 1)
  }

  /// The finder patterns sit in three corners; the dark module beside the lower-left finder.
  @Test func functionPatternsAreInPlace() throws {
    let code = try QRCode(text: "x")
    for (cx, cy) in [(3, 3), (code.size - 4, 3), (3, code.size - 4)] {
      #expect(code.isDark(x: cx, y: cy))
      #expect(!code.isDark(x: cx + 2, y: cy))
      #expect(code.isDark(x: cx + 3, y: cy))
    }
    #expect(code.isDark(x: 8, y: code.size - 8))
    #expect(!code.isDark(x: -1, y: 0))
  }

  /// Half blocks: two rows per line, a four-module light border drawn as blocks.
  @Test func halfBlocksHaveTheQuietZoneAndTwoRowsPerLine() throws {
    let code = try QRCode(text: "x")
    let lines = code.halfBlocks().split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
    #expect(lines.count == (code.size + 8 + 1) / 2)
    #expect(lines.allSatisfy { $0.count == code.size + 8 })
    #expect(lines[0] == Substring(String(repeating: "█", count: code.size + 8)))
  }
}
