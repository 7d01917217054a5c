import Foundation
import SocialLogin

/// What the `d` field of a session hash holds, once opened (see `RecordSealing`): a format
/// number and the record.
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
  /// The record's seal does not open: sealed with a key this store lacks, altered, copied from
  /// another key or version, or not sealed at all. Never served, never set aside (a replica
  /// that lacks a new key must not destroy records the others can read).
  case unopenable(SealingError)
}

extension RedisSessionStore {
  /// The format number written into every record.
  public static let formatVersion = 1

  /// The `d` field for `session` at `version`: the JSON record, sealed for that version under
  /// the session's key name.
  func encode(_ session: StoredSession, version: UInt64) throws(AuthError) -> [UInt8] {
    let json = try Self.encode(session)
    return sealing.seal(
      json, context: keys.recordContext(tag: RedisKeys.tag(for: session.key), version: version))
  }

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

  /// Opens and decodes the `v` and `d` fields read for `tag`.
  func decode(version: RESPValue, data: RESPValue, tag: String) throws(AuthError)
    -> RedisReadOutcome
  {
    if version.isNull && data.isNull { return .absent }
    guard let versionBytes = version.bytes,
      let number = RedisStoreMessage.decimal(versionBytes[...]), number > 0
    else {
      return .corrupt(reason: "the version field is missing or not a positive number")
    }
    guard number < UInt64.max else { return .corrupt(reason: "the version is at its maximum") }
    guard let sealed = data.bytes else { return .corrupt(reason: "the record field is missing") }
    let bytes: [UInt8]
    do {
      bytes = try sealing.open(
        sealed, context: keys.recordContext(tag: tag, version: number)
      ).bytes
    } catch {
      return .unopenable(error)
    }
    return try Self.decodeOpened(bytes, version: number, tag: tag)
  }

  /// Decodes an opened record stored at `version` under `tag`.
  static func decodeOpened(_ bytes: [UInt8], version number: UInt64, tag: String)
    throws(AuthError) -> RedisReadOutcome
  {
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

  /// The sealed `dr` field of a tombstone at `version`.
  func sealNotice(_ notice: RedisDeletionNotice, version: UInt64) -> [UInt8] {
    let json = (try? JSONEncoder().encode(notice)).map { Array($0) } ?? []
    return sealing.seal(
      json,
      context: keys.tombstoneContext(tag: RedisKeys.tag(for: notice.key), version: version))
  }

  /// Opens a tombstone's `dr` field read at `version` for `tag`: `nil` when it does not open,
  /// does not decode, or names a session of another tag.
  func openNotice(_ sealed: [UInt8], version: UInt64, tag: String) -> RedisDeletionNotice? {
    guard
      let opened = try? sealing.open(
        sealed, context: keys.tombstoneContext(tag: tag, version: version)),
      let notice = try? JSONDecoder().decode(RedisDeletionNotice.self, from: Data(opened.bytes)),
      RedisKeys.tag(for: notice.key) == tag
    else { return nil }
    return notice
  }
}
