import Foundation
import Testing

@testable import SocialLogin

/// Issue 34: a session the file store signed out says why, to the next command or process
/// that meets it, and the notice is sealed and bound to its file like a record.
@Suite(.timeLimit(.minutes(1))) struct StorageFileStoreDeletionReasonTests {
  func noticeFile(_ directory: URL, _ key: SessionKey) -> URL {
    directory.appendingPathComponent(FileSessionStore.stem(for: key) + ".gone")
  }

  @Test(arguments: [false, true])
  func aSignOutKeepsItsReasonUntilTheAccountSignsInAgain(sealed: Bool) async throws {
    try await withTemporaryDirectory { directory in
      let ring = try SealingKeyRing(sealingKey: SealingKey.generate())
      let store = try FileSessionStore(directory: directory, sealing: sealed ? ring : nil)
      let saved = try await store.save(sampleSession(), expectedVersion: nil)
      #expect(try await store.deletionReason(for: saved.key) == nil)
      #expect(
        try await store.delete(saved.key, ifVersion: saved.version, reason: .signedOutByOperator))
      #expect(try await store.deletionReason(for: saved.key) == .signedOutByOperator)
      let bytes = try Data(contentsOf: noticeFile(directory, saved.key))
      #expect(SealingKeyRing.isSealed(Array(bytes)) == sealed)
      #expect(permissions(noticeFile(directory, saved.key).path) == 0o600)
      #expect(try await store.loadAll().sessions.isEmpty, "a notice is not a session")
      // Signing in again removes it: the new session is not "signed out".
      let again = try await store.save(sampleSession(), expectedVersion: nil)
      #expect(try await store.deletionReason(for: again.key) == nil)
      #expect(!FileManager.default.fileExists(atPath: noticeFile(directory, again.key).path))
    }
  }

  @Test func aWrongVersionKeepsTheRecordAndWritesNoNotice() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let saved = try await store.save(sampleSession(), expectedVersion: nil)
      #expect(
        try await store.delete(saved.key, ifVersion: saved.version + 1, reason: .userInitiated)
          == false)
      #expect(try await store.deletionReason(for: saved.key) == nil)
      #expect(try await store.load(saved.key) != nil)
    }
  }

  /// A notice is a hint for a message: garbage, a copied notice, an oversized file or one
  /// sealed with another key gives no reason, and never an error or a sign-out.
  @Test func aHostileNoticeGivesNoReason() async throws {
    try await withTemporaryDirectory { directory in
      let ring = try SealingKeyRing(sealingKey: SealingKey.generate())
      let store = try FileSessionStore(directory: directory, sealing: ring)
      let alice = try await store.save(sampleSession("alice"), expectedVersion: nil)
      let bob = try await store.save(sampleSession("bob"), expectedVersion: nil)
      #expect(try await store.delete(alice.key, ifVersion: alice.version, reason: .accountDisabled))
      #expect(try await store.delete(bob.key, ifVersion: bob.version, reason: .userInitiated))
      let alicesNotice = try Data(contentsOf: noticeFile(directory, alice.key))
      // Alice's sealed notice copied over Bob's does not open there.
      try alicesNotice.write(to: noticeFile(directory, bob.key))
      #expect(try await store.deletionReason(for: bob.key) == nil)
      for garbage in [
        Data("not json".utf8), Data(#"{"version":1,"reason":{"userInitiated":{}}}"#.utf8),
        Data(repeating: 0x41, count: 100_000),
      ] {
        try garbage.write(to: noticeFile(directory, bob.key))
        #expect(try await store.deletionReason(for: bob.key) == nil)
      }
      #expect(try await store.deletionReason(for: alice.key) == .accountDisabled)
    }
  }
}
