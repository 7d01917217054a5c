/// Strict DER decoding of an ECDSA signature, `SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279).
enum ECDSASignatureDER {
  /// Returns `r` and `s` as 32-byte big-endian values, or `nil` unless `der` is the one valid
  /// DER encoding of two non-negative integers that fit in 256 bits.
  ///
  /// Rejects: any other tag, long-form lengths (a P-256 signature is at most 72 bytes, so a long
  /// form is never minimal), lengths that disagree with the data, trailing bytes, empty or
  /// negative integers, and superfluous leading zero bytes.
  static func decode(_ der: [UInt8]) -> (r: [UInt8], s: [UInt8])? {
    guard der.count >= 2, der[0] == 0x30, der[1] < 0x80, Int(der[1]) == der.count - 2 else {
      return nil
    }
    var offset = 2
    guard let r = integer(der, &offset), let s = integer(der, &offset), offset == der.count else {
      return nil
    }
    return (r, s)
  }

  /// Reads one `INTEGER` at `offset`, advancing it; returns its value left-padded to 32 bytes.
  private static func integer(_ der: [UInt8], _ offset: inout Int) -> [UInt8]? {
    guard offset + 2 <= der.count, der[offset] == 0x02 else { return nil }
    let length = Int(der[offset + 1])
    let start = offset + 2
    guard length >= 1, length < 0x80, start + length <= der.count else { return nil }
    let first = der[start]
    guard first & 0x80 == 0 else { return nil }  // negative
    var content = der[start..<(start + length)]
    if first == 0 && length > 1 {
      guard der[start + 1] & 0x80 != 0 else { return nil }  // superfluous leading zero
      content = content.dropFirst()
    }
    guard content.count <= 32 else { return nil }
    offset = start + length
    return [UInt8](repeating: 0, count: 32 - content.count) + content
  }
}
