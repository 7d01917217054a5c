import Foundation
import SocialLogin

/// What an option's value must look like. The parser checks every value while parsing, so a
/// command only sees values of the right shape, and every command words the same mistake the
/// same way.
enum ValueKind: Sendable {
  /// Any text.
  case text
  /// An `http` or `https` URL with a host.
  case httpURL
  /// A TCP port, 1 to 65535.
  case port
  /// A TCP port to listen on, 0 (any free port) to 65535.
  case listenPort
  /// A number greater than zero.
  case positiveNumber
  /// A whole number of seconds greater than zero.
  case positiveSeconds
  /// A number of seconds, zero or more.
  case nonNegativeSeconds
  /// A UNIX time in seconds.
  case unixTime
  /// One of a fixed set of words.
  case choice([String])
  /// `HOST:PORT`, as `SOCIALLOGIN_EMULATOR_HOST` takes it.
  case hostPort
  /// `NAME=URL` with an http(s) URL.
  case namedURL
  /// An emulated user's id: 1 to 64 letters, digits, `-`, `_` and `.`.
  case userID

  /// Checks `value` given for `option`; returns the reason it is wrong, or `nil`.
  func problem(with value: String, option: String) -> String? {
    switch self {
    case .text:
      return nil
    case .httpURL:
      return Self.httpURL(value) == nil ? "\(option) must be an http(s) URL" : nil
    case .port:
      guard let port = UInt16(value), port > 0 else { return "\(option) must be 1...65535" }
      return nil
    case .listenPort:
      return UInt16(value) == nil ? "\(option) must be 0...65535 (0: any free port)" : nil
    case .positiveNumber:
      guard let number = Double(value), number > 0, number < 1e9 else {
        return "\(option) must be a positive number"
      }
      return nil
    case .positiveSeconds:
      guard let seconds = Int(value), seconds > 0 else {
        return "\(option) must be a positive number of seconds"
      }
      return nil
    case .nonNegativeSeconds:
      guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
        return "\(option) must be a non-negative number of seconds"
      }
      return nil
    case .unixTime:
      guard let seconds = Double(value), seconds.isFinite else {
        return "\(option) must be a UNIX time in seconds"
      }
      return nil
    case .choice(let words):
      guard words.contains(value) else {
        return "unknown \(option) '\(value)'\(Suggestion.didYouMean(value, among: words)) "
          + "(known: \(words.joined(separator: ", ")))"
      }
      return nil
    case .hostPort:
      do {
        _ = try EmulatorHost(parsing: value)
        return nil
      } catch {
        return "\(option) must be HOST:PORT with a loopback host (127.0.0.0/8, ::1, "
          + "localhost), for example 127.0.0.1:9199"
      }
    case .namedURL:
      guard let (_, url) = Self.namedURL(value), Self.httpURL(url) != nil else {
        return "\(option) must be NAME=URL with an http(s) URL"
      }
      return nil
    case .userID:
      guard !value.isEmpty, value.count <= 64,
        value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
      else {
        return "\(option) must be an id of 1 to 64 letters, digits, '-', '_' and '.'"
      }
      return nil
    }
  }

  /// `text` as an http(s) URL with a host, or `nil`.
  static func httpURL(_ text: String) -> URL? {
    guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http",
      let host = url.host, !host.isEmpty
    else { return nil }
    return url
  }

  /// `NAME=VALUE` split at the first `=`, or `nil` when either side is empty.
  static func namedURL(_ text: String) -> (name: String, value: String)? {
    guard let equals = text.firstIndex(of: "=") else { return nil }
    let name = String(text[..<equals])
    let value = String(text[text.index(after: equals)...])
    guard !name.isEmpty, !value.isEmpty else { return nil }
    return (name, value)
  }
}
