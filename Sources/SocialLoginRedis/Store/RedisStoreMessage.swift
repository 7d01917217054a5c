import SocialLogin

/// One hint on a store's channel (`<prefix>:hints`): which session, which version, what kind
/// of change — never a record, a reason or a token.
///
/// The wire form is fixed: one kind byte, the session's 32-character lowercase hex tag, and
/// for a write or delete `:` and the version in decimal (no sign, no leading zero, at most 20
/// digits):
///
/// - `R<tag>` — a released lease (waiters try the lease again);
/// - `W<tag>:<version>` — a session written at `version`;
/// - `D<tag>:<version>` — a session deleted at `version`.
///
/// Anyone allowed to publish on the server can send one, so a hint is only ever a reason to
/// ask Redis: a replica acts on what it then re-reads and authenticates (see
/// ``RedisChangeConfirmer``), and a payload that does not have this exact shape is dropped
/// before anything else looks at it.
struct RedisStoreMessage: Hashable, Sendable {
  /// What kind of change a hint announces.
  enum Kind: UInt8, Sendable {
    case released = 0x52  // "R"
    case written = 0x57  // "W"
    case deleted = 0x44  // "D"
  }

  /// The longest payload a hint can have: kind, tag, `:`, 20 digits.
  static let maximumLength = 1 + RedisKeys.tagLength + 1 + 20

  var kind: Kind
  /// The session's tag (``RedisKeys/tag(for:)``), 32 lowercase hex characters.
  var tag: String
  /// The version written or deleted; 0 for a released lease.
  var version: UInt64

  /// The hint for a released lease on `tag`.
  static func released(tag: String) -> RedisStoreMessage {
    RedisStoreMessage(kind: .released, tag: tag, version: 0)
  }

  /// Reads a payload: `nil` unless it has exactly the shape above. Runs in time linear in the
  /// payload's length (at most ``maximumLength`` bytes are looked at).
  static func parse(_ payload: [UInt8]) -> RedisStoreMessage? {
    guard payload.count >= 1 + RedisKeys.tagLength, payload.count <= maximumLength,
      let kind = Kind(rawValue: payload[0])
    else { return nil }
    let tagBytes = payload[1...RedisKeys.tagLength]
    guard tagBytes.allSatisfy(Self.isLowercaseHex) else { return nil }
    let tag = String(decoding: tagBytes, as: UTF8.self)
    let rest = payload[(1 + RedisKeys.tagLength)...]
    if kind == .released {
      return rest.isEmpty ? .released(tag: tag) : nil
    }
    guard rest.first == UInt8(ascii: ":") else { return nil }
    let digits = rest.dropFirst()
    guard let version = Self.decimal(digits), version > 0 else { return nil }
    return RedisStoreMessage(kind: kind, tag: tag, version: version)
  }

  /// The payload of this hint.
  var payload: [UInt8] {
    var bytes = [kind.rawValue] + Array(tag.utf8)
    if kind != .released { bytes += Array(":\(version)".utf8) }
    return bytes
  }

  /// A bounded decimal: 1 to 20 digits, no leading zero, fitting in 64 bits.
  static func decimal(_ digits: ArraySlice<UInt8>) -> UInt64? {
    guard !digits.isEmpty, digits.count <= 20,
      digits.first != UInt8(ascii: "0") || digits.count == 1
    else { return nil }
    var value: UInt64 = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
      guard !overflow, !carry else { return nil }
      value = sum
    }
    return value
  }

  private static func isLowercaseHex(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
  }
}

/// What a tombstone keeps besides its version, sealed in its `dr` field: whose session it was
/// (a deletion's hint names only the tag) and why it ended.
struct RedisDeletionNotice: Codable, Equatable {
  var key: SessionKey
  var reason: SignOutReason?
}
