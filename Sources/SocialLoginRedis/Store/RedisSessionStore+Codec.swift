import Foundation
import SocialLogin

/// What the `d` field of a session hash holds: a format number and the record.
struct RedisSessionRecord: Codable {
  var format: Int
  var session: StoredSession
}

/// The result of reading one session hash.
enum RedisReadOutcome {
  case absent
  case found(StoredSession)
  /// Unreadable; the reason never contains stored values.
  case corrupt(reason: String)
}

extension RedisSessionStore {
  /// The format number written into every record.
  public static let formatVersion = 1

  static func encode(_ session: StoredSession) throws(AuthError) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .deferredToDate
    do {
      return Array(
        try encoder.encode(RedisSessionRecord(format: formatVersion, session: session)))
    } catch {
      throw AuthError(
        .storageFailed, "Redis session store: the session could not be encoded.",
        provider: session.key.provider)
    }
  }

  /// Decodes the `v` and `d` fields read for `tag`.
  static func decode(version: RESPValue, data: RESPValue, tag: String) throws(AuthError)
    -> RedisReadOutcome
  {
    if version.isNull && data.isNull { return .absent }
    guard let versionText = version.string, let number = UInt64(versionText), number > 0 else {
      return .corrupt(reason: "the version field is missing or not a positive number")
    }
    guard number < UInt64.max else { return .corrupt(reason: "the version is at its maximum") }
    guard let bytes = data.bytes else { return .corrupt(reason: "the record field is missing") }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .deferredToDate
    struct Header: Decodable { var format: Int }
    guard let header = try? decoder.decode(Header.self, from: Data(bytes)) else {
      return .corrupt(reason: "the record is not JSON with a format number")
    }
    if header.format > formatVersion {
      throw AuthError(
        .storageFailed,
        "Redis session store: a record uses format \(header.format), newer than this SDK's "
          + "\(formatVersion); update the SDK. The record was left untouched.")
    }
    guard header.format == formatVersion,
      let record = try? decoder.decode(RedisSessionRecord.self, from: Data(bytes))
    else {
      return .corrupt(reason: "the record cannot be decoded")
    }
    guard tagFor(record.session.key) == tag else {
      return .corrupt(reason: "the record holds another session's key")
    }
    var session = record.session
    session.version = number
    return .found(session)
  }

  static func tagFor(_ key: SessionKey) -> String { RedisKeys.tag(for: key) }
}
