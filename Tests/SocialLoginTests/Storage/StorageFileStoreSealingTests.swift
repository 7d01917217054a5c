import Foundation
import Testing

@testable import SocialLogin

/// ``FileSessionStore`` with a ``SealingKeyRing``: sealed files, files that fail to open kept
/// in place, and lazy resealing after a key rotation.
@Suite(.timeLimit(.minutes(1))) struct StorageFileStoreSealingTests {
  static let keyA = named("a")
  static let keyB = named("b")

  /// A new key with a fixed id (ids the test chose, so valid).
  static func named(_ id: String) -> SealingKey {
    guard let key = try? SealingKey.generate(id: id) else {
      preconditionFailure("\(id) is a valid key id")
    }
    return key
  }

  static func ring(_ keys: SealingKey...) throws -> SealingKeyRing {
    try SealingKeyRing(sealingKey: keys[0], openingAlso: Array(keys.dropFirst()))
  }

  @Test func sealedRoundTripKeepsNoTokenInClear() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory, sealing: Self.ring(Self.keyA))
      let saved = try await store.save(sampleSession(), expectedVersion: nil)
      #expect(try await store.load(saved.key) == saved)
      #expect(try await store.loadAll().sessions == [saved])
      let updated = try await store.save(saved, expectedVersion: saved.version)
      #expect(updated.version == saved.version + 1)

      let bytes = try Data(contentsOf: sessionFile(directory, saved.key))
      #expect(SealingKeyRing.isSealed(Array(bytes)))
      let text = String(decoding: bytes, as: UTF8.self)
      for clear in ["access-token-value", "refresh-token-value", "format", "session"] {
        #expect(!text.contains(clear), "\(clear) in clear")
      }
      #expect(permissions(try sessionFile(directory, saved.key).path) == 0o600)
    }
  }

  /// A file copied over another user's file fails to open (the file name is in the
  /// associated data), is reported as tampered, and stays on disk untouched.
  @Test func copiedFileIsTamperedAndLeftInPlace() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory, sealing: Self.ring(Self.keyA))
      let alice = try await store.save(sampleSession("alice"), expectedVersion: nil)
      let mallory = try await store.save(sampleSession("mallory"), expectedVersion: nil)
      let target = try sessionFile(directory, mallory.key)
      try FileManager.default.removeItem(at: target)
      try FileManager.default.copyItem(at: sessionFile(directory, alice.key), to: target)
      let copied = try Data(contentsOf: target)

      let error = await #expect(throws: AuthError.self) { try await store.load(mallory.key) }
      #expect(error?.code == .storageTampered)
      #expect(error?.message.contains(target.path) == true)
      #expect(error?.isTransient == false)
      let snapshot = try await store.loadAll()
      #expect(snapshot.sessions == [alice])
      #expect(snapshot.failures.map(\.error.code) == [.storageTampered])
      #expect(snapshot.failures.map(\.location) == [target.path])
      #expect(snapshot.failures.map(\.quarantinedAt) == [nil])
      // A write does not overwrite what it cannot read.
      let saveError = await #expect(throws: AuthError.self) {
        try await store.save(sampleSession("mallory"), expectedVersion: mallory.version)
      }
      #expect(saveError?.code == .storageTampered)
      #expect(try Data(contentsOf: target) == copied)
      #expect(try listing(directory).filter { $0.contains(".corrupt-") }.isEmpty)
    }
  }

  @Test func plaintextLegacyFileIsTamperedAndLeftInPlace() async throws {
    try await withTemporaryDirectory { directory in
      let plain = try FileSessionStore(directory: directory)
      let saved = try await plain.save(sampleSession(), expectedVersion: nil)
      let file = try sessionFile(directory, saved.key)
      let legacy = try Data(contentsOf: file)

      let sealed = try FileSessionStore(directory: directory, sealing: Self.ring(Self.keyA))
      let error = await #expect(throws: AuthError.self) { try await sealed.load(saved.key) }
      #expect(error?.code == .storageTampered)
      #expect(try await sealed.loadAll().failures.map(\.error.code) == [.storageTampered])
      #expect(try Data(contentsOf: file) == legacy)
    }
  }

  /// A store that lacks the key (or has none) reports the key id, keeps the file, and serves
  /// the other sessions.
  @Test func unknownKeyIsReportedAndTheFileKept() async throws {
    try await withTemporaryDirectory { directory in
      let writer = try FileSessionStore(directory: directory, sealing: Self.ring(Self.keyA))
      let saved = try await writer.save(sampleSession("1"), expectedVersion: nil)
      let file = try sessionFile(directory, saved.key)
      let bytes = try Data(contentsOf: file)

      let otherKey = try FileSessionStore(directory: directory, sealing: Self.ring(Self.keyB))
      let other = try await otherKey.save(sampleSession("2"), expectedVersion: nil)
      let error = await #expect(throws: AuthError.self) { try await otherKey.load(saved.key) }
      #expect(error?.code == .storageSealedWithUnknownKey)
      #expect(error?.message.contains("\"a\"") == true)
      let snapshot = try await otherKey.loadAll()
      #expect(snapshot.sessions == [other])
      #expect(snapshot.failures.map(\.error.code) == [.storageSealedWithUnknownKey])
      let deleteError = await #expect(throws: AuthError.self) {
        try await otherKey.delete(saved.key)
      }
      #expect(deleteError?.code == .storageSealedWithUnknownKey)

      let noKeys = try FileSessionStore(directory: directory)
      let plainError = await #expect(throws: AuthError.self) { try await noKeys.load(saved.key) }
      #expect(plainError?.code == .storageSealedWithUnknownKey)
      #expect(try Data(contentsOf: file) == bytes)
      #expect(try await writer.load(saved.key) == saved)
    }
  }

  /// After a rotation (new key first, old key kept), old records still load and are sealed
  /// with the new key by their next write; then the old key can be dropped.
  @Test func rotationResealsOnWrite() async throws {
    try await withTemporaryDirectory { directory in
      let old = try FileSessionStore(directory: directory, sealing: Self.ring(Self.keyA))
      let saved = try await old.save(sampleSession(), expectedVersion: nil)
      let file = try sessionFile(directory, saved.key)
      #expect(Self.keyID(of: try Data(contentsOf: file)) == "a")

      let rotated = try FileSessionStore(
        directory: directory, sealing: Self.ring(Self.keyB, Self.keyA))
      let loaded = try #require(try await rotated.load(saved.key))
      #expect(loaded == saved)
      #expect(Self.keyID(of: try Data(contentsOf: file)) == "a")  // reading does not write
      let rewritten = try await rotated.save(loaded, expectedVersion: loaded.version)
      #expect(Self.keyID(of: try Data(contentsOf: file)) == "b")

      let newOnly = try FileSessionStore(directory: directory, sealing: Self.ring(Self.keyB))
      #expect(try await newOnly.load(saved.key) == rewritten)
    }
  }

  static func keyID(of bytes: Data) -> String? {
    let value = Array(bytes)
    guard SealingKeyRing.isSealed(value), value.count > 5 else { return nil }
    let length = Int(value[4])
    guard value.count >= 5 + length else { return nil }
    return String(decoding: value[5..<(5 + length)], as: UTF8.self)
  }
}
