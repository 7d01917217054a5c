/// Lower-case hexadecimal, the one encoder the package's modules share (file names, Redis
/// keys, emulator ids, script digests).
///
/// ```swift
/// HexEncoding.lowercase([0x0f, 0xa0])  // "0fa0"
/// ```
package enum HexEncoding {
  /// `bytes` as lower-case hexadecimal, two digits a byte.
  package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
      output.append(digits[Int(byte >> 4)])
      output.append(digits[Int(byte & 15)])
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static let digits = Array("0123456789abcdef".utf8)
}
