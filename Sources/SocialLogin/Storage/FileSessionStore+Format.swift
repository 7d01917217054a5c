import Foundation
import SocialLoginCrypto

/// What a session file holds: a format number and the record.
struct FileSessionRecord: Codable {
  /// The file format; see ``FileSessionStore/formatVersion``.
  var format: Int
  /// The session.
  var session: StoredSession
}

/// Only the format number, decoded first so that a file from a newer SDK is recognised
/// before anything else is decoded.
struct FileSessionHeader: Decodable {
  var format: Int
}

/// The result of reading one session file.
enum FileReadOutcome {
  /// No file.
  case absent
  /// A valid record whose key matches the file name.
  case found(StoredSession)
  /// The file exists but is not a valid record; the reason never contains file contents.
  case corrupt(reason: String)
}

extension FileSessionStore {
  /// The longest file-name stem the store derives from a key, so that every derived name
  /// (`.<stem>.json.tmp-…`, `<stem>.json.corrupt-…`) stays well under the 255-byte limit.
  static let maximumStemLength = 200

  /// The file-name stem for `key`: the provider and the subject, each as lower-case RFC 4648
  /// base32 without padding, joined by `-` (not in the alphabet, so the split is unambiguous).
  ///
  /// Base32 keeps raw user text out of paths and, being single-case, cannot collide on
  /// case-insensitive file systems (the macOS default). A key too long for that (over
  /// ``maximumStemLength`` once encoded, about 120 bytes) is named `_sha256_<hex>` instead,
  /// the SHA-256 of the length-prefixed provider and subject; `_` is in neither alphabet, so
  /// the two forms never meet.
  static func stem(for key: SessionKey) -> String {
    let provider = Array(key.provider.rawValue.utf8)
    let subject = Array(key.subject.utf8)
    let readable = base32(provider) + "-" + base32(subject)
    guard readable.utf8.count > maximumStemLength else { return readable }
    return "_sha256_" + HexEncoding.lowercase(key.digest)
  }

  /// Lower-case RFC 4648 base32, no padding.
  static func base32(_ bytes: [UInt8]) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 8 + 4) / 5)
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        output.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
      }
    }
    if bits > 0 {
      output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)])
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The encoder for session files: sorted keys, and dates as Foundation's own
  /// `timeIntervalSinceReferenceDate` `Double`, which round-trips every `Date` bit for bit.
  static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .deferredToDate
    return encoder
  }

  /// The decoder matching ``makeEncoder()``.
  static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .deferredToDate
    return decoder
  }

  /// Encodes a record for disk.
  static func encode(_ session: StoredSession) throws(AuthError) -> Data {
    do {
      return try makeEncoder().encode(FileSessionRecord(format: formatVersion, session: session))
    } catch {
      throw AuthError(
        .storageFailed, "Session store: the session could not be encoded.",
        provider: session.key.provider)
    }
  }

  /// Decodes file contents, checking the format number and that the key belongs to `stem`.
  ///
  /// Throws ``AuthError/Code/storageFailed`` for a file written in a newer format: such a file
  /// is not corrupt, so it is left where it is.
  static func decode(_ data: Data, stem: String, path: String) throws(AuthError)
    -> FileReadOutcome
  {
    let decoder = makeDecoder()
    let header: FileSessionHeader
    do {
      header = try decoder.decode(FileSessionHeader.self, from: data)
    } catch {
      return .corrupt(reason: "not a session file: \(describe(error))")
    }
    if header.format > formatVersion {
      throw AuthError(
        .storageFailed,
        "Session store: \(path) uses format \(header.format), newer than this SDK's "
          + "\(formatVersion); update the SDK. The file was left untouched.")
    }
    guard header.format == formatVersion else {
      return .corrupt(reason: "unknown format \(header.format)")
    }
    let record: FileSessionRecord
    do {
      record = try decoder.decode(FileSessionRecord.self, from: data)
    } catch {
      return .corrupt(reason: "cannot be decoded: \(describe(error))")
    }
    guard Self.stem(for: record.session.key) == stem else {
      return .corrupt(reason: "holds a session whose key does not match the file name")
    }
    // No write can follow this version (there is no next one): set the file aside now rather
    // than let a refresh spend the refresh token and then fail to save what it got.
    guard record.session.version < UInt64.max else {
      return .corrupt(reason: "holds a version at its maximum")
    }
    return .found(record.session)
  }

  /// A decoding error's kind and coding path, never the offending value.
  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "invalid JSON" }
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      return keys.isEmpty ? "the top level" : keys.joined(separator: ".")
    }
    switch error {
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty ? "invalid JSON" : "invalid value at \(path(context))"
    case .keyNotFound(let key, let context):
      return "missing \(key.stringValue) at \(path(context))"
    case .typeMismatch(_, let context): return "wrong type at \(path(context))"
    case .valueNotFound(_, let context): return "missing value at \(path(context))"
    @unknown default: return "invalid JSON"
    }
  }
}
