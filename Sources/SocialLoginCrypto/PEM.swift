/// The one PEM reader: exactly one `-----BEGIN <label>-----` … `-----END <label>-----` block,
/// surrounding whitespace allowed, a base64 body in between. X.509 certificates and PKCS #8
/// private keys both read their DER through it, so both refuse the same malformed texts.
enum PEM {
  /// Why a text is not one PEM block of the expected label, in words for an error message.
  struct Problem: Error, Equatable {
    let message: String
  }

  /// The DER inside the one PEM block labelled `label` (`CERTIFICATE`, `PRIVATE KEY`).
  static func body(_ text: String, label: String) throws(Problem) -> [UInt8] {
    let begin = "-----BEGIN \(label)-----"
    let end = "-----END \(label)-----"
    // Bytes, not Characters: "\r\n" is a single Character.
    func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    let utf8 = Array(text.utf8)
    guard let first = utf8.firstIndex(where: { !isSpace($0) }),
      let last = utf8.lastIndex(where: { !isSpace($0) })
    else { throw Problem(message: "The text is empty.") }
    let body = String(decoding: utf8[first...last], as: UTF8.self)
    guard body.hasPrefix(begin) else {
      throw Problem(message: "The text does not start with \(begin).")
    }
    guard body.hasSuffix(end) else {
      throw Problem(message: "The text does not end with \(end) (trailing data or truncated).")
    }
    let inner = body.dropFirst(begin.count).dropLast(end.count)
    guard !inner.contains("-") else {
      throw Problem(message: "The text holds more than one PEM block.")
    }
    guard let der = Base64.decode(inner), !der.isEmpty else {
      throw Problem(message: "The PEM body is not base64.")
    }
    return der
  }
}
