/// The data bit stream (byte mode), its padding, and the interleaved blocks with their error
/// correction (ISO/IEC 18004 §7.4 and §7.6).
extension QRCode {
  /// The final codeword sequence of `data` in `version` at `level`; the caller has checked that
  /// it fits.
  static func codewords(_ data: [UInt8], version: Int, level: Level) -> [UInt8] {
    let layout = layout(version: version, level: level)
    var bits = BitBuffer()
    bits.append(0b0100, count: 4)
    bits.append(data.count, count: countBits(version: version))
    for byte in data { bits.append(Int(byte), count: 8) }
    let capacity = layout.dataCodewords * 8
    bits.append(0, count: min(4, capacity - bits.count))
    bits.append(0, count: (8 - bits.count % 8) % 8)
    var padded = bits.bytes
    var pad: UInt8 = 0xEC
    while padded.count < layout.dataCodewords {
      padded.append(pad)
      pad = pad == 0xEC ? 0x11 : 0xEC
    }
    return interleave(padded, layout: layout)
  }

  /// Splits data codewords into blocks, adds each block's error correction, and interleaves:
  /// the first codeword of every block, then the second, ..., then the same for the ECC.
  static func interleave(_ data: [UInt8], layout: BlockLayout) -> [UInt8] {
    var blocks: [[UInt8]] = []
    var start = 0
    for index in 0..<layout.blocks {
      let length = layout.shortData + (index < layout.shortBlocks ? 0 : 1)
      blocks.append(Array(data[start..<start + length]))
      start += length
    }
    let corrections = blocks.map { ReedSolomon.remainder($0, degree: layout.eccPerBlock) }
    var result: [UInt8] = []
    for column in 0...layout.shortData {
      for block in blocks where column < block.count { result.append(block[column]) }
    }
    for column in 0..<layout.eccPerBlock {
      for correction in corrections { result.append(correction[column]) }
    }
    return result
  }

  /// Bits appended most significant first.
  struct BitBuffer {
    /// The bits so far.
    private(set) var bits: [Bool] = []

    /// How many bits there are.
    var count: Int { bits.count }

    /// Appends the low `count` bits of `value`.
    mutating func append(_ value: Int, count: Int) {
      for shift in stride(from: count - 1, through: 0, by: -1) {
        bits.append((value >> shift) & 1 == 1)
      }
    }

    /// The bits as bytes; the count is a multiple of eight when this is read.
    var bytes: [UInt8] {
      stride(from: 0, to: bits.count, by: 8).map { start in
        bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
      }
    }
  }
}
