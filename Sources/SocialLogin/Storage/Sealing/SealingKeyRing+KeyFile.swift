import Foundation
import SocialLoginCrypto

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension SealingKeyRing {
  /// The largest key file ``load(contentsOf:)`` reads (64 KiB, about a thousand keys).
  static let maximumKeyFileSize = 64 * 1024

  /// Parses a key file.
  ///
  /// The file is UTF-8 text. Blank lines and lines starting with `#` are ignored; every other
  /// line is `<id> <base64url 32-byte secret>` (``SealingKey/keyFileLine``). The **first**
  /// key line seals; every key opens. To rotate, add the new key as the first line and keep
  /// the old ones until every record has been resealed.
  ///
  /// ```text
  /// # sealing keys for myapp (chmod 600)
  /// k20261206T070535-3fa9 Jm0x...43 characters
  /// k20250101T000000-0c1d u8Qe...
  /// ```
  ///
  /// - Throws: ``SealingError`` `.invalidKeyFile` naming the line of a malformed entry (wrong
  ///   number of fields, bad id, secret not base64url or not 32 bytes, duplicate id) or a file
  ///   without keys. Messages never quote a secret.
  public init(keyFile contents: String) throws(SealingError) {
    var keys: [SealingKey] = []
    var firstLine: [String: Int] = [:]
    var number = 0
    // `isNewline` also splits "\r\n", which Swift treats as one Character (not "\n").
    for rawLine in contents.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      number += 1
      let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count == 2 else {
        throw SealingError(
          .invalidKeyFile,
          "Key file line \(number): expected \"<id> <base64url secret>\" (2 fields), found "
            + "\(fields.count).")
      }
      let id = String(fields[0])
      guard SealingKey.isValidID(id) else {
        throw SealingError(
          .invalidKeyFile,
          "Key file line \(number): the key id must be 1-64 characters of A-Z a-z 0-9 . _ -.")
      }
      let secret: [UInt8]
      do {
        secret = try Base64URL.decode(fields[1])
      } catch {
        throw SealingError(
          .invalidKeyFile,
          "Key file line \(number): the secret of key \"\(id)\" is not unpadded base64url.")
      }
      guard secret.count == XChaCha20Poly1305.keySize else {
        throw SealingError(
          .invalidKeyFile,
          "Key file line \(number): the secret of key \"\(id)\" is \(secret.count) bytes; "
            + "it must be 32.")
      }
      if let first = firstLine[id] {
        throw SealingError(
          .invalidKeyFile,
          "Key file line \(number): key id \"\(id)\" already appears on line \(first); ids "
            + "must be unique.")
      }
      firstLine[id] = number
      do {
        keys.append(try SealingKey(id: id, secret: secret))
      } catch {
        throw SealingError(.invalidKeyFile, "Key file line \(number): \(error.message)")
      }
    }
    guard let sealingKey = keys.first else {
      throw SealingError(.invalidKeyFile, "The key file holds no key line.")
    }
    try self.init(sealingKey: sealingKey, openingAlso: Array(keys.dropFirst()))
  }

  /// Reads and parses the key file at `path` (see ``init(keyFile:)``).
  ///
  /// The file must be a regular file (symbolic links are followed) that neither group nor
  /// others can access (`chmod 600`): a key file anyone on the machine can read protects
  /// nothing, so it is refused rather than used.
  ///
  /// - Throws: ``SealingError`` `.invalidKeyFile` when the file cannot be read, is accessible
  ///   to group or others, is larger than 64 KiB, is not UTF-8, or is malformed.
  public static func load(contentsOf path: String) throws(SealingError) -> SealingKeyRing {
    let fd: Int32
    switch POSIXFile.openFile(path, O_RDONLY | O_NONBLOCK) {
    case .descriptor(let opened): fd = opened
    case .failed(let code):
      throw SealingError(
        .invalidKeyFile, "Cannot open key file \(path): \(POSIXFile.describe(code)).")
    }
    defer { POSIXFile.closeFile(fd) }
    let data: Data
    do {
      let info = try POSIXFile.status(of: fd, path: path)
      guard info.st_mode & POSIXFile.typeMask == POSIXFile.regularType else {
        throw SealingError(.invalidKeyFile, "Key file \(path) is not a regular file.")
      }
      let mode = info.st_mode & 0o777
      guard mode & 0o077 == 0 else {
        throw SealingError(
          .invalidKeyFile,
          "Key file \(path) has mode 0\(String(mode, radix: 8)): group or others can access "
            + "it. Run `chmod 600 \(path)` (and consider the keys in it exposed if others "
            + "could read it).")
      }
      guard info.st_size <= maximumKeyFileSize,
        let read = try POSIXFile.readAll(fd, limit: maximumKeyFileSize, path: path)
      else {
        throw SealingError(
          .invalidKeyFile, "Key file \(path) is larger than \(maximumKeyFileSize) bytes.")
      }
      data = read
    } catch let error as SealingError {
      throw error
    } catch {
      throw SealingError(.invalidKeyFile, "Cannot read key file \(path): \(error).")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw SealingError(.invalidKeyFile, "Key file \(path) is not UTF-8 text.")
    }
    do {
      return try SealingKeyRing(keyFile: text)
    } catch {
      throw SealingError(error.kind, "\(path): \(error.message)", keyID: error.keyID)
    }
  }
}
