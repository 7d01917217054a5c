/// Redis Cluster's key → hash slot mapping: CRC16 (XMODEM: polynomial 0x1021, initial value 0,
/// no reflection) of the key modulo 16384, where a key containing `{...}` with at least one
/// byte between the first `{` and the next `}` is hashed by those bytes only (its hash tag).
enum HashSlot {
  /// The number of slots of a cluster.
  static let count = 16384

  /// The slot of `key`.
  static func slot(of key: some Collection<UInt8>) -> UInt16 {
    UInt16(crc16(hashedPart(of: key)) % UInt16(count))
  }

  /// The slot of a text key (its UTF-8 bytes).
  static func slot(of key: String) -> UInt16 { slot(of: Array(key.utf8)) }

  /// The bytes that are hashed: the tag between the first `{` and the next `}` when it is not
  /// empty, otherwise the whole key.
  static func hashedPart<C: Collection<UInt8>>(of key: C) -> C.SubSequence {
    if let open = key.firstIndex(of: UInt8(ascii: "{")) {
      let afterOpen = key.index(after: open)
      if let close = key[afterOpen...].firstIndex(of: UInt8(ascii: "}")), close != afterOpen {
        return key[afterOpen..<close]
      }
    }
    return key[...]
  }

  /// CRC16-XMODEM of `bytes`.
  static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
      crc ^= UInt16(byte) << 8
      for _ in 0..<8 {
        crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
      }
    }
    return crc
  }
}
