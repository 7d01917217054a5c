import Foundation
import LoopbackHTTP
import SocialLogin

/// A JSON document the emulator builds at JSON pointers, whose integers are kept as their
/// decimal text: `JSONValue` holds numbers as `Double`, and Kakao's ids exceed 2^53, so they
/// must reach the wire digit for digit.
indirect enum ExactJSON: Sendable, Equatable {
  case object([String: ExactJSON])
  case array([ExactJSON])
  case value(JSONValue)
  /// An integer, written as this decimal text.
  case integer(String)

  /// An empty object.
  static let empty = ExactJSON.object([:])

  /// `text` as an integer when it is one (an optional `-` and 1–19 digits), else as a string.
  static func numberOrString(_ text: String) -> ExactJSON {
    let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return .value(.string(text)) }
    return .integer(text)
  }

  /// Writes `value` at `pointer`, making the objects on the way; a pointer through a
  /// non-object, or the empty pointer, changes nothing.
  mutating func set(_ value: ExactJSON, at pointer: JSONPointer) {
    guard !pointer.tokens.isEmpty else { return }
    set(value, at: pointer.tokens[...])
  }

  private mutating func set(_ value: ExactJSON, at tokens: ArraySlice<String>) {
    guard case .object(var members) = self, let key = tokens.first else { return }
    if tokens.count == 1 {
      members[key] = value
    } else {
      var child = members[key] ?? .empty
      child.set(value, at: tokens.dropFirst())
      members[key] = child
    }
    self = .object(members)
  }

  /// The JSON text, keys sorted.
  var text: String {
    switch self {
    case .object(let members):
      let fields = members.keys.sorted().map { key in
        String(decoding: EmulatorJSON.encode(.string(key)), as: UTF8.self) + ":"
          + (members[key]?.text ?? "null")
      }
      return "{" + fields.joined(separator: ",") + "}"
    case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
    case .value(let value): return String(decoding: EmulatorJSON.encode(value), as: UTF8.self)
    case .integer(let digits): return digits
    }
  }

  /// An `application/json` response of the document.
  func response(status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json; charset=utf-8"],
      body: Array(text.utf8))
  }
}
