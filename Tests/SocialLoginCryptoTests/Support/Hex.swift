// Hex helpers for test vectors. Test-only: the SDK itself never needs hex.

struct HexDecodingError: Error, CustomStringConvertible {
  let input: String
  var description: String { "not an even-length hex string: \(input.prefix(40))" }
}

extension Array where Element == UInt8 {
  /// Decodes a hex string such as `"ba7816bf"`; whitespace is ignored so RFC vectors can be
  /// pasted as printed.
  init(hex: String) throws {
    let digits = hex.utf8.filter { $0 != 0x20 && $0 != 0x0A }
    guard digits.count % 2 == 0 else { throw HexDecodingError(input: hex) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
        throw HexDecodingError(input: hex)
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    self = bytes
  }

  /// Lower-case hex, for readable expectation failures.
  var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(count * 2)
    for byte in self {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// A deterministic generator (SplitMix64) so "random" split points are reproducible on failure.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
