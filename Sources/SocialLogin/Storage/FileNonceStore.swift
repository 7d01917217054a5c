import Foundation
import SocialLoginCrypto

/// A ``NonceStore`` in a private directory (`0700`, files `0600`): one file per nonce, named by
/// the nonce's SHA-256 and holding its expiry, so that processes on one machine (a CLI, a
/// backend's workers) share nonces without a server.
///
/// - Consuming reads the file, then unlinks it: of concurrent consumers exactly one unlinks,
///   and only that one gets `true`.
/// - Expired files are swept on insert, at most once a minute.
///
/// ```swift
/// let nonces = NonceIssuer(store: try FileNonceStore(directory: directory))
/// ```
public final class FileNonceStore: NonceStore {
  /// The directory the nonces are kept in.
  public let directory: URL
  private let clock: any AuthClock
  private let nextSweep: Locked<Date>

  /// A store in `directory`, created `0700` if needed.
  ///
  /// - Parameters:
  ///   - directory: Where the nonce files go (not shared with other data).
  ///   - clock: The clock expiry is checked against.
  /// - Throws: ``AuthError/Code/storageFailed`` when the directory cannot be made private.
  public init(directory: URL, clock: any AuthClock = SystemAuthClock()) throws(AuthError) {
    try PrivateFiles.prepareDirectory(directory.path)
    self.directory = directory
    self.clock = clock
    nextSweep = Locked(clock.wallTime)
  }

  /// Keeps `nonce` until `expiresAt`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an empty nonce,
  ///   ``AuthError/Code/replayed`` for one already kept;
  ///   ``AuthError/Code/storageFailed`` when the file cannot be written.
  public func insert(_ nonce: Secret, expiresAt: Date) async throws {
    guard !nonce.isEmpty else { throw AuthError(.configuration, "A nonce cannot be empty.") }
    sweepIfDue()
    let path = self.path(for: nonce)
    guard try POSIXFile.status(ofPath: path) == nil else {
      throw AuthError(.replayed, "This nonce is already kept.")
    }
    try PrivateFiles.write(Data(String(expiresAt.timeIntervalSince1970).utf8), to: path)
  }

  /// Removes `nonce`; `true` when it was kept and had not expired.
  ///
  /// - Throws: ``AuthError/Code/storageFailed`` when the file cannot be read or removed.
  public func consume(_ nonce: Secret) async throws -> Bool {
    try await consume(digest: SHA256.hash(Array(nonce.revealed.utf8)))
  }

  /// Removes the nonce whose SHA-256 is `digest` (Apple's hashed nonce); `true` when it was
  /// kept and had not expired.
  ///
  /// - Throws: ``AuthError/Code/storageFailed`` when the file cannot be read or removed.
  public func consume(digest: [UInt8]) async throws -> Bool {
    guard digest.count == 32 else { return false }
    let path = directory.appendingPathComponent(HexEncoding.lowercase(digest) + ".nonce").path
    guard let data = try PrivateFiles.read(path, limit: 64) else { return false }
    guard try POSIXFile.remove(path) else { return false }
    let expiry = Double(String(decoding: data, as: UTF8.self)) ?? 0
    return expiry > clock.wallTime.timeIntervalSince1970
  }

  private func path(for nonce: Secret) -> String {
    // The same name ``consume(digest:)`` finds.
    directory.appendingPathComponent(
      HexEncoding.lowercase(SHA256.hash(Array(nonce.revealed.utf8))) + ".nonce"
    ).path
  }

  /// Removes expired nonce files, at most once a minute.
  private func sweepIfDue() {
    let now = clock.wallTime
    let due = nextSweep.withLock { next -> Bool in
      guard now >= next else { return false }
      next = now.addingTimeInterval(60)
      return true
    }
    guard due,
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return }
    for name in names where name.hasSuffix(".nonce") {
      let path = directory.appendingPathComponent(name).path
      guard let data = try? PrivateFiles.read(path, limit: 64),
        let expiry = Double(String(decoding: data, as: UTF8.self)),
        expiry <= now.timeIntervalSince1970
      else { continue }
      _ = try? POSIXFile.remove(path)
    }
  }
}
