import Foundation
import SocialLoginCrypto

/// The id your service gives one of its users, under which that user's sign-ins with several
/// providers (LINE, Facebook, Firebase, …) are linked: one person, many provider identities.
///
/// The SDK never derives it from what a provider says (an e-mail, a name): your service
/// chooses it, typically its own user id, and links each ``SessionKey`` to it explicitly with
/// ``LoginClient/link(_:to:)``. It is validated when made, because it names records in shared
/// stores and appears in errors and logs: 1 to ``maximumLength`` UTF-8 bytes, with no control
/// characters (C0, DEL, C1), line or paragraph separators, or bidirectional overrides, which
/// could forge lines in a log or hide what an operator reads.
///
/// Ids compare, hash and order by their UTF-8 bytes (like ``SessionKey``): two ids that merely
/// look alike (`"é"` composed and decomposed) are two accounts.
///
/// ```swift
/// let account = try AccountID("user-8f14e45f")
/// try await login.link(lineSession.key, to: account)
/// ```
public struct AccountID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The longest id, in UTF-8 bytes: long enough for any database key or UUID, short enough
  /// to keep stored links small.
  public static let maximumLength = 256

  /// How many session keys one account can hold: an account grows only by explicit links,
  /// and a caller that links in a loop (or an attacker driving a linking flow) cannot make
  /// one account's records grow without bound.
  public static let maximumLinks = 64

  /// The id as your service gave it.
  public let rawValue: String

  /// Makes an id from your service's user id.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an empty id, one longer than
  ///   ``maximumLength`` UTF-8 bytes, or one with a control character, a line or paragraph
  ///   separator or a bidirectional control; the message never repeats the id.
  public init(_ rawValue: String) throws(AuthError) {
    let length = rawValue.utf8.count
    guard length > 0 else {
      throw AuthError(.configuration, "An account id cannot be empty.")
    }
    guard length <= Self.maximumLength else {
      throw AuthError(
        .configuration,
        "An account id is \(length) UTF-8 bytes; at most \(Self.maximumLength) are allowed.")
    }
    if let bad = rawValue.unicodeScalars.first(where: Self.isForbidden) {
      let code = "U+" + String(bad.value, radix: 16, uppercase: true)
      throw AuthError(
        .configuration, "An account id cannot contain control characters (found \(code)).")
    }
    self.rawValue = rawValue
  }

  /// The id as your service gave it.
  public var description: String { rawValue }

  /// Decodes an id and validates it like ``init(_:)``: a stored id is outside data.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    try self.init(container.decode(String.self))
  }

  /// Encodes the id as a JSON string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// Equal when the UTF-8 bytes are equal.
  public static func == (lhs: AccountID, rhs: AccountID) -> Bool {
    lhs.rawValue.utf8.elementsEqual(rhs.rawValue.utf8)
  }

  /// Hashes the UTF-8 bytes (consistent with `==`).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rawValue.utf8.count)
    for byte in rawValue.utf8 { hasher.combine(byte) }
  }

  /// Orders by the UTF-8 bytes.
  public static func < (lhs: AccountID, rhs: AccountID) -> Bool {
    lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
  }

  /// Control characters (Cc), line and paragraph separators, and the bidirectional embedding,
  /// override and isolate controls.
  private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E,
      0x200F, 0x061C:
      return true
    default:
      return false
    }
  }

  /// The SHA-256 of the id's UTF-8 bytes: the one digest that names an account where raw text
  /// cannot go (file names, Redis keys). Stored names depend on it: never change it.
  package var digest: [UInt8] { SHA256.hash(Array(rawValue.utf8)) }
}
