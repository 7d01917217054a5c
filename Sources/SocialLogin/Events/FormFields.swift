/// Form fields read for the receiver: a name sent twice makes the form unreadable, so that
/// two parsers (a proxy's and this one) can never disagree on which value counts.
enum FormFields {
  /// The fields of a form body, or `nil` when a name repeats.
  ///
  /// An ASCII body (every logout token, SET and signed request) is cut at its `&` and `=`
  /// bytes and each part percent-decoded once, without building a `String` of the body and
  /// walking its graphemes: that walk cost more than the RSA verification it precedes. Any
  /// other body goes through ``FormEncoding/decode(_:)``, whose `Character`-wise split this
  /// reproduces exactly for ASCII (where every byte is a `Character`).
  static func parse(_ body: [UInt8]) -> [String: String]? {
    var fields: [String: String] = [:]
    guard body.allSatisfy({ $0 < 0x80 }) else {
      for (name, value) in FormEncoding.decode(String(decoding: body, as: UTF8.self)) {
        guard fields.updateValue(value, forKey: name) == nil else { return nil }
      }
      return fields
    }
    var start = 0
    while start <= body.count {
      let end = body[start...].firstIndex(of: UInt8(ascii: "&")) ?? body.count
      if end > start {
        let field = body[start..<end]
        let name: String
        let value: String
        if let equals = field.firstIndex(of: UInt8(ascii: "=")) {
          name = decodeComponent(field[..<equals])
          value = decodeComponent(field[(equals + 1)...])
        } else {
          name = decodeComponent(field)
          value = ""
        }
        guard fields.updateValue(value, forKey: name) == nil else { return nil }
      }
      start = end + 1
    }
    return fields
  }

  /// ``FormEncoding/decodeComponent(_:)`` on bytes: `+` is a space, `%XX` a byte, a malformed
  /// escape is kept as it is.
  static func decodeComponent(_ bytes: ArraySlice<UInt8>) -> String {
    guard bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    return FormEncoding.decodeComponent(String(decoding: bytes, as: UTF8.self))
  }
}
