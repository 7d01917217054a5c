import Foundation
import SocialLoginCrypto

/// A named 256-bit key that seals stored records (XChaCha20-Poly1305).
///
/// The id travels in every sealed value's header, so a store can tell which key sealed a
/// record and keep opening it after a rotation. Ids are not secret; secrets never appear in
/// ``description``, `dump` or error messages.
///
/// ```swift
/// let key = SealingKey.generate()          // id "k20261206T070535-3fa9"
/// print(key.keyFileLine)                   // append it to the key file (mode 0600)
/// ```
public struct SealingKey: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The key's name: 1...64 characters of `A-Z a-z 0-9 . _ -`.
  public let id: String
  /// The 32 secret bytes.
  let secret: [UInt8]

  /// The most characters an id may have (its length is one byte of the sealed header).
  static let maximumIDLength = 64

  /// Creates a key from its id and its 32 secret bytes.
  ///
  /// - Throws: ``SealingError`` `.invalidKey` for an id that is empty, longer than 64
  ///   characters or outside `[A-Za-z0-9._-]`, or a secret that is not exactly 32 bytes.
  public init(id: String, secret: [UInt8]) throws(SealingError) {
    guard Self.isValidID(id) else {
      throw SealingError(
        .invalidKey, "A sealing key id must be 1-64 characters of A-Z a-z 0-9 . _ -.")
    }
    guard secret.count == XChaCha20Poly1305.keySize else {
      throw SealingError(
        .invalidKey,
        "Sealing key \"\(id)\" has a \(secret.count)-byte secret; it must be 32 bytes.")
    }
    self.id = id
    self.secret = secret
  }

  /// A new key with 32 bytes from the system's CSPRNG and a generated id.
  ///
  /// The id, `k<UTC yyyyMMdd'T'HHmmss>-<4 hex>`, sorts by creation time and is unique enough
  /// that two operators generating keys at once do not collide.
  public static func generate() -> SealingKey {
    SealingKey(validID: defaultID(now: Date()), secret: freshSecret())
  }

  /// A new key with 32 bytes from the system's CSPRNG, named `id`.
  ///
  /// - Throws: ``SealingError`` `.invalidKey` for an id that is empty, longer than 64
  ///   characters or outside `[A-Za-z0-9._-]`.
  public static func generate(id: String) throws(SealingError) -> SealingKey {
    try SealingKey(id: id, secret: freshSecret())
  }

  /// A key whose id is valid by construction and whose secret has the right size.
  private init(validID: String, secret: [UInt8]) {
    id = validID
    self.secret = secret
  }

  private static func freshSecret() -> [UInt8] {
    SecureRandom.bytes(count: XChaCha20Poly1305.keySize)
  }

  /// The key as one line of a key file: `<id> <base64url secret, no padding>`.
  ///
  /// This is the only way the secret leaves the key; write it only to a file of mode `0600`.
  public var keyFileLine: String {
    id + " " + Base64URL.encode(secret)
  }

  /// The id only: printing a key must never print its secret.
  public var description: String { "SealingKey(id: \(id))" }
  /// The id only, as ``description``.
  public var debugDescription: String { description }
  /// The id only, so `dump(key)` and debuggers do not show the secret.
  public var customMirror: Mirror { Mirror(self, children: ["id": id]) }

  /// Same id and same secret; the secrets are compared in constant time.
  public static func == (lhs: SealingKey, rhs: SealingKey) -> Bool {
    let sameSecret = ConstantTime.equals(lhs.secret, rhs.secret)
    return lhs.id == rhs.id && sameSecret
  }

  /// Whether `id` is 1...64 characters of `[A-Za-z0-9._-]`.
  static func isValidID(_ id: String) -> Bool {
    isValidID(Array(id.utf8))
  }

  /// Whether `bytes` spell a valid id (an id read from a sealed header).
  static func isValidID(_ bytes: some Collection<UInt8>) -> Bool {
    guard (1...maximumIDLength).contains(bytes.count) else { return false }
    return bytes.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "-"):
        true
      default: false
      }
    }
  }

  /// `k` + UTC `yyyyMMdd'T'HHmmss` + `-` + 4 random hex digits.
  static func defaultID(now: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: now)
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : "\(value)"
    }
    let stamp =
      "\(parts.year ?? 0)" + two(parts.month) + two(parts.day) + "T" + two(parts.hour)
      + two(parts.minute) + two(parts.second)
    return "k" + stamp + "-" + HexEncoding.lowercase(SecureRandom.bytes(count: 2))
  }
}
