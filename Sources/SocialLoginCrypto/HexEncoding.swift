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

  /// The 32 bytes `text` spells when it is exactly 64 hexadecimal digits (either case), as a
  /// SHA-256 digest is written; `nil` for anything else.
  package static func decodeSHA256(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count == 64 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    var index = 0
    while index < 64 {
      guard let high = value(of: utf8[index]), let low = value(of: utf8[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func value(of digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
