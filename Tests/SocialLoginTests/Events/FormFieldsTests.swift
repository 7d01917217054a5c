import Testing

@testable import SocialLogin

/// The receiver's byte-wise form reader must read every ASCII body exactly as the
/// `Character`-wise ``FormEncoding/decode(_:)`` does, including hostile ones.
@Suite("Provider events: form fields")
struct FormFieldsTests {
  /// What the receiver read before the byte-wise path: the general decoder, a repeated name
  /// making the form unreadable.
  static func reference(_ body: String) -> [String: String]? {
    var fields: [String: String] = [:]
    for (name, value) in FormEncoding.decode(body) {
      guard fields.updateValue(value, forKey: name) == nil else { return nil }
    }
    return fields
  }

  static let bodies: [String] = [
    "", "&", "&&&", "=", "==", "a", "a=", "=a", "a=b=c", "a=1&b=2", "a=1&&b=2&", "&a=1",
    "a=1&a=2", "a=1&a", "a&a=", "%41=%42", "%4=%", "%%41", "%zz=1", "a+b=c+d", "a=%2B%26%3D",
    "a=%F0%9F%98%80", "a=%FF%FE", "logout_token=eyJh.eyJz.c2ln", "\r\n=\r\n&\r=\n",
    "a=\u{7F}&b=\u{0}", String(repeating: "x=1&", count: 3) + "y",
  ]

  @Test(arguments: bodies)
  func anASCIIBodyReadsAsTheGeneralDecoderReadsIt(_ body: String) {
    #expect(FormFields.parse(Array(body.utf8)) == Self.reference(body))
  }

  @Test func aNonASCIIBodyTakesTheGeneralDecoder() {
    // A combining accent after `&` joins it into one `Character`, which `split` never cuts at.
    let body = "a=1&\u{301}b=2&c=é"
    #expect(FormFields.parse(Array(body.utf8)) == Self.reference(body))
    let invalid: [UInt8] = [0x61, 0x3D, 0xC3, 0x25, 0x41, 0x39]
    #expect(
      FormFields.parse(invalid) == Self.reference(String(decoding: invalid, as: UTF8.self)))
  }

  @Test func aRepeatedNameMakesTheFormUnreadable() {
    #expect(FormFields.parse(Array("logout_token=a&logout_token=b".utf8)) == nil)
    #expect(FormFields.parse(Array("logout_token=a&x=1".utf8)) == ["logout_token": "a", "x": "1"])
  }

  @Test func theRouteIsThePathWithoutItsQuery() {
    #expect(ProviderEventRequest(method: "GET", path: "/a/b?c=d?e").route == "/a/b")
    #expect(ProviderEventRequest(method: "GET", path: "/a/b").route == "/a/b")
    #expect(ProviderEventRequest(method: "GET", path: "").route == "")
    #expect(ProviderEventRequest(method: "GET", path: "?/a").route == "/a")
    #expect(ProviderEventRequest(method: "GET", path: "??").route == "")
  }
}
