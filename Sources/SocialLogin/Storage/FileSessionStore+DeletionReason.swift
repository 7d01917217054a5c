import Foundation

/// Why a session was signed out, kept beside its deleted record, so that a command or a
/// process meeting the session later says why it ended ("signed out by an operator",
/// "refresh token revoked") instead of only "no stored session".
///
/// The notice is `<stem>.gone`: the deleted version and the ``SignOutReason`` as JSON, sealed
/// like a record (bound to its file name) when the store seals. A new record for the key
/// removes it. A notice that does not open or parse is ignored: it is a hint for a message,
/// never a reason to sign anyone out.
extension FileSessionStore {
  /// What a `.gone` file holds.
  struct DeletionNotice: Codable {
    var version: UInt64
    var reason: SignOutReason
  }

  /// The most a notice file may hold; anything longer is not a notice.
  static let deletionNoticeLimit = 4096

  /// Deletes the session stored under `key` if it is at `version`, as
  /// ``delete(_:ifVersion:)`` does, and keeps `reason` for ``deletionReason(for:)``.
  ///
  /// - Throws: As ``delete(_:ifVersion:)``.
  public func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason)
    async throws -> Bool
  {
    let stem = Self.stem(for: key)
    return try await perform {
      try self.withWriteLock(stem: stem) { (lockFile) throws(AuthError) -> Bool in
        guard try self.deleteRecord(stem: stem, ifVersion: version, lockFile: lockFile) else {
          return false
        }
        let fileName = stem + ".gone"
        // The record is gone whatever happens to its notice: a notice that cannot be
        // written costs a message, not the sign-out.
        if let notice = try? JSONEncoder().encode(DeletionNotice(version: version, reason: reason))
        {
          try? self.writeAtomically(self.sealRecord(notice, fileName: fileName), fileName: fileName)
        }
        return true
      }
    }
  }

  /// The reason the session `key` was signed out with, if its record is gone and the store
  /// kept one (``delete(_:ifVersion:reason:)``).
  public func deletionReason(for key: SessionKey) async throws -> SignOutReason? {
    let stem = Self.stem(for: key)
    return try await perform {
      guard try POSIXFile.status(ofPath: self.path(stem + ".json")) == nil,
        let data = try? PrivateFiles.read(
          self.path(stem + ".gone"), limit: Self.deletionNoticeLimit),
        let opened = try? self.openRecord(data, fileName: stem + ".gone"),
        let notice = try? JSONDecoder().decode(DeletionNotice.self, from: opened)
      else { return nil }
      return notice.reason
    }
  }

  /// Removes the deletion notice of `stem` (a new record was written). Call with the write
  /// lock held.
  func removeDeletionNotice(stem: String) {
    _ = try? POSIXFile.remove(path(stem + ".gone"))
  }
}
