import Testing

@testable import SocialLoginCrypto

/// Poly1305 against RFC 8439 §2.5.2 and edge cases of the final reduction.
@Suite struct Poly1305Tests {
  static func tag(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
    var mac = key.withUnsafeBytes { Poly1305(key: $0) }
    message.withUnsafeBytes { mac.updateMessage($0) }
    return mac.tagBytes()
  }

  @Test func rfc8439Section2_5_2() throws {
    let key = try [UInt8](
      hex: "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
    let tag = Self.tag(Array("Cryptographic Forum Research Group".utf8), key: key)
    #expect(tag.hex == "a8061dc1305136c6c22b8baf0c0127a9")
  }

  /// RFC 8439 Appendix A.3 #1 and #5-#9: h lands on, just below or past p = 2^130 - 5, where
  /// the carries and the constant-time final subtraction must pick the right value.
  @Test(arguments: [
    ("zero key", "00" * 32, "00" * 64, "00000000000000000000000000000000"),
    ("A.3 #5", "02" + "00" * 31, "ff" * 16, "03000000000000000000000000000000"),
    ("A.3 #6", "02" + "00" * 15 + "ff" * 16, "02" + "00" * 15, "03000000000000000000000000000000"),
    (
      "A.3 #7", "01" + "00" * 31, "ff" * 16 + "f0" + "ff" * 15 + "11" + "00" * 15,
      "05000000000000000000000000000000"
    ),
    (
      "A.3 #8", "01" + "00" * 31, "ff" * 16 + "fb" + "fe" * 15 + "01" * 16,
      "00000000000000000000000000000000"
    ),
    ("A.3 #9", "02" + "00" * 31, "fd" + "ff" * 15, "faffffffffffffffffffffffffffffff"),
  ])
  func rfc8439AppendixA3(name: String, key: String, message: String, tag: String) throws {
    #expect(Self.tag(try [UInt8](hex: message), key: try [UInt8](hex: key)).hex == tag, "\(name)")
  }
}

extension String {
  /// `"ff" * 3 == "ffffff"`, to write long hex vectors readably.
  fileprivate static func * (lhs: String, rhs: Int) -> String {
    String(repeating: lhs, count: rhs)
  }
}
