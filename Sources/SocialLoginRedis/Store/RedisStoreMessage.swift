import Foundation
import SocialLogin

/// One message on a store's channel (`<prefix>:lease-released`), as the scripts publish it:
///
/// - `tag` — a released lease;
/// - `tag \n version \n record` — a session written (the `d` field as stored);
/// - `tag \n D<version> \n notice` — a session deleted at `version` (``RedisDeletionNotice``).
///
/// Messages are outside data (anyone who can publish on the server can send one): parsing
/// never traps, and a message that does not fit is dropped by the change feed (lease waiters
/// still wake and ask Redis).
enum RedisStoreMessage: Equatable {
  case released(tag: String)
  case written(tag: String, update: LeaseUpdate)
  case deleted(tag: String, version: UInt64, notice: [UInt8])

  /// The session's tag the message is about.
  var tag: String {
    switch self {
    case .released(let tag), .written(let tag, _), .deleted(let tag, _, _): return tag
    }
  }

  /// What names this one write or delete among all messages (its tag and version, which no
  /// other write or delete repeats), or `nil` for a released lease, whose message is the tag
  /// alone and may come again.
  var identity: String? {
    switch self {
    case .released: return nil
    case .written(let tag, let update):
      return tag + "\n" + String(decoding: update.version, as: UTF8.self)
    case .deleted(let tag, let version, _): return tag + "\nD\(version)"
    }
  }

  /// Reads a payload; `nil` for a deletion whose version is not a number.
  static func parse(_ payload: [UInt8]) -> RedisStoreMessage? {
    let newline = UInt8(ascii: "\n")
    guard let first = payload.firstIndex(of: newline) else {
      return .released(tag: String(decoding: payload, as: UTF8.self))
    }
    let tag = String(decoding: payload[..<first], as: UTF8.self)
    let rest = payload[(first + 1)...]
    guard let second = rest.firstIndex(of: newline) else { return .released(tag: tag) }
    let version = rest[..<second]
    let body = Array(rest[(second + 1)...])
    if version.first == UInt8(ascii: "D") {
      guard let number = UInt64(String(decoding: version.dropFirst(), as: UTF8.self)) else {
        return nil
      }
      return .deleted(tag: tag, version: number, notice: body)
    }
    return .written(tag: tag, update: LeaseUpdate(version: Array(version), record: body))
  }

  /// The change the message reports, or `nil` for a released lease and for a message that
  /// does not decode to a record or notice of the session its tag names.
  var change: SessionStoreChange? {
    switch self {
    case .released: return nil
    case .written(let tag, let update):
      guard
        case .found(let session) = try? RedisSessionStore.decode(
          version: .bulkString(update.version), data: .bulkString(update.record), tag: tag)
      else { return nil }
      return .written(session)
    case .deleted(let tag, let version, let notice):
      guard let notice = RedisDeletionNotice(json: notice),
        RedisKeys.tag(for: notice.key) == tag
      else { return nil }
      return .deleted(notice.key, version: version, reason: notice.reason)
    }
  }
}

/// What a deletion's message says besides its tag and version: whose session it was and why
/// it ended (also kept, as the reason alone, in the tombstone's `dr` field).
struct RedisDeletionNotice: Codable, Equatable {
  var key: SessionKey
  var reason: SignOutReason?

  init(key: SessionKey, reason: SignOutReason?) {
    self.key = key
    self.reason = reason
  }

  init?(json: [UInt8]) {
    guard let notice = try? JSONDecoder().decode(Self.self, from: Data(json)) else { return nil }
    self = notice
  }

  var json: [UInt8] { (try? JSONEncoder().encode(self)).map { Array($0) } ?? [] }

  /// A reason as the tombstone keeps it.
  static func encode(_ reason: SignOutReason?) -> [UInt8] {
    guard let reason, let data = try? JSONEncoder().encode(reason) else { return [] }
    return Array(data)
  }

  /// A tombstone's reason; `nil` when it holds none or garbage.
  static func decodeReason(_ bytes: [UInt8]) -> SignOutReason? {
    try? JSONDecoder().decode(SignOutReason.self, from: Data(bytes))
  }
}
