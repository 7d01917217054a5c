import Foundation
import Testing

@testable import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite(.timeLimit(.minutes(1))) struct StorageFileStoreTests {
  // MARK: Directory and permissions

  @Test func createsDirectoryAndFilesPrivately() async throws {
    try await withTemporaryDirectory { root in
      let directory = root.appendingPathComponent("a/b/sessions")
      let store = try FileSessionStore(directory: directory)
      #expect(permissions(directory.path) == 0o700)

      let session = try await store.save(sampleSession(), expectedVersion: nil)
      let lease = try await store.lockRefresh(for: session.key)
      await lease.release()
      let names = try listing(directory)
      #expect(names.count == 3)  // .json, .lock, .lease
      for name in names {
        #expect(permissions(directory.appendingPathComponent(name).path) == 0o600, "\(name)")
      }
    }
  }

  @Test func tightensAnExistingLooseDirectory() async throws {
    try await withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o755])
      #expect(permissions(directory.path) == 0o755)
      _ = try FileSessionStore(directory: directory)
      #expect(permissions(directory.path) == 0o700)
    }
  }

  @Test func refusesADirectoryOwnedBySomeoneElse() async throws {
    try await withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      // Only root can give a directory away; as anyone else, skip the check.
      guard geteuid() == 0 else { return }
      #expect(chown(directory.path, 65_534, 65_534) == 0)
      let error = #expect(throws: AuthError.self) { try FileSessionStore(directory: directory) }
      #expect(error?.code == .storageFailed)
    }
  }

  @Test func refusesAPathThatIsNotADirectory() async throws {
    try await withTemporaryDirectory { root in
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      let file = root.appendingPathComponent("plain")
      try Data("x".utf8).write(to: file)
      let error = #expect(throws: AuthError.self) { try FileSessionStore(directory: file) }
      #expect(error?.code == .storageFailed)
      let web = #expect(throws: AuthError.self) {
        try FileSessionStore(directory: URL(string: "https://example.test/x")!)
      }
      #expect(web?.code == .configuration)
    }
  }

  // MARK: Round trip and layout

  @Test func roundTripIsExactAcrossInstances() async throws {
    try await withTemporaryDirectory { directory in
      let session = sampleSession()
      let saved = try await FileSessionStore(directory: directory)
        .save(session, expectedVersion: nil)
      let loaded = try await FileSessionStore(directory: directory).load(session.key)
      #expect(loaded == saved)
      #expect(loaded?.credential == session.credential)
      #expect(loaded?.identity == session.identity)
    }
  }

  @Test func everyDateSurvivesEncoding() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      var session = sampleSession()
      let seconds = Double.random(in: -4e9...4e9, using: &generator)
      session.credential.issuedAt = Date(timeIntervalSinceReferenceDate: seconds)
      session.credential.expiresAt = Date(timeIntervalSince1970: seconds.magnitude / 3)
      session.credential.serverTimeOffset = .random(in: -1e3...1e3, using: &generator)
      let data = try FileSessionStore.encode(session)
      let stem = FileSessionStore.stem(for: session.key)
      guard case .found(let decoded) = try FileSessionStore.decode(data, stem: stem, path: "t")
      else {
        Issue.record("did not decode")
        return
      }
      #expect(decoded.credential == session.credential)
    }
  }

  @Test func fileFormatIsVersionedSortedAndNamedWithoutUserText() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let session = sampleSession("../../etc/passwd Ada:Ü")
      _ = try await store.save(session, expectedVersion: nil)
      let names = try listing(directory).filter { $0.hasSuffix(".json") }
      let name = try #require(names.first)
      #expect(names.count == 1)
      #expect(name.allSatisfy { "abcdefghijklmnopqrstuvwxyz234567-.".contains($0) })
      let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      #expect(text.contains("\"format\" : 1"))
      #expect(text.contains("\"session\""))
      #expect(try await store.load(session.key) == store.loadAll().sessions.first)
    }
  }

  @Test func differentKeysNeverShareAFile() throws {
    let keys = [
      SessionKey(provider: "a:b", subject: "c"), SessionKey(provider: "a", subject: "b:c"),
      SessionKey(provider: "a", subject: "B"), SessionKey(provider: "a", subject: "b"),
      SessionKey(provider: "a", subject: ""),
    ]
    let stems = keys.map { FileSessionStore.stem(for: $0) }
    #expect(Set(stems).count == keys.count)
    #expect(FileSessionStore.base32(Array("foobar".utf8)) == "mzxw6ytboi")
  }

  @Test func longKeysAreStoredUnderAHashedName() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let long = String(repeating: "x", count: 300)
      let keys = [
        SessionKey(provider: .twitter, subject: long + "a"),
        SessionKey(provider: .twitter, subject: long + "b"),
        SessionKey(provider: ProviderID(rawValue: "custom-" + long), subject: "1"),
      ]
      for key in keys {
        _ = try await store.save(
          sampleSession(key.subject, provider: key.provider), expectedVersion: nil)
      }
      for key in keys { #expect(try await store.load(key)?.key == key) }
      #expect(try await store.loadAll().sessions.map(\.key) == keys.sorted())
      let names = try listing(directory).filter { $0.hasSuffix(".json") }
      #expect(names.count == 3)
      #expect(names.allSatisfy { $0.hasPrefix("_sha256_") && $0.utf8.count == 8 + 64 + 5 })
      // Short keys keep their readable base32 names.
      #expect(FileSessionStore.stem(for: SessionKey(provider: "a", subject: "b")) == "me-mi")
    }
  }

  @Test func deletedVersionsOutliveTheStoreInstanceInTheLockFile() async throws {
    try await withTemporaryDirectory { directory in
      let session = sampleSession()
      var stored = try await FileSessionStore(directory: directory).save(
        session, expectedVersion: nil)
      stored = try await FileSessionStore(directory: directory).save(
        stored, expectedVersion: stored.version)
      try await FileSessionStore(directory: directory).delete(session.key)
      let lockFile = directory.appendingPathComponent(
        FileSessionStore.stem(for: session.key) + ".lock")
      #expect(try String(contentsOf: lockFile, encoding: .utf8) == "2")
      let recreated = try await FileSessionStore(directory: directory).save(
        session, expectedVersion: nil)
      #expect(recreated.version == 3)

      // A lock file with anything else in it never blocks writes.
      try await FileSessionStore(directory: directory).delete(session.key)
      try Data("garbage".utf8).write(to: lockFile)
      let afterGarbage = try await FileSessionStore(directory: directory).save(
        session, expectedVersion: nil)
      #expect(afterGarbage.version == 1)
    }
  }

  /// Found by fuzzing: a version of `UInt64.max` in a session or lock file made the next
  /// save trap on `+ 1`. Such a record is set aside as corrupt before any refresh could spend
  /// its refresh token, and such a lock file counts as garbage.
  @Test func maximumVersionsInFilesAreCorruptNotFatal() async throws {
    try await withTemporaryDirectory { directory in
      let session = sampleSession()
      let stem = FileSessionStore.stem(for: session.key)
      let store = try FileSessionStore(directory: directory)
      try Data(String(UInt64.max).utf8).write(
        to: directory.appendingPathComponent(stem + ".lock"))
      #expect(try await store.save(session, expectedVersion: nil).version == 1)

      let file = directory.appendingPathComponent(stem + ".json")
      let text = try String(contentsOf: file, encoding: .utf8)
      try Data(
        text.replacingOccurrences(of: #""version" : 1"#, with: #""version" : \#(UInt64.max)"#)
          .utf8
      ).write(to: file)
      #expect(try String(contentsOf: file, encoding: .utf8).contains(String(UInt64.max)))
      let snapshot = try await store.loadAll()
      #expect(snapshot.sessions.isEmpty)
      #expect(snapshot.failures.count == 1)
    }
  }

  @Test func writesLeaveNoTemporaryFiles() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      var current = try await store.save(sampleSession(), expectedVersion: nil)
      for index in 0..<10 {
        current.credential.accessToken = Secret("token-\(index)")
        current = try await store.save(current, expectedVersion: current.version)
      }
      _ = try? await store.save(current, expectedVersion: 1)  // a conflict writes nothing
      let stem = FileSessionStore.stem(for: current.key)
      #expect(try listing(directory) == [stem + ".json", stem + ".lock"])
    }
  }

  // MARK: Corrupt and unreadable records

  @Test func corruptFileIsSetAsideAndOthersStillLoad() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let good = try await store.save(sampleSession("good"), expectedVersion: nil)
      let badKey = SessionKey(provider: .twitter, subject: "bad")
      let badFile = try sessionFile(directory, badKey)
      try Data("{\"format\": 1, \"session\": {\"token\": \"SECRET-VALUE\"".utf8).write(to: badFile)

      let error = await #expect(throws: AuthError.self) { try await store.load(badKey) }
      #expect(error?.code == .storageCorrupt)
      #expect(error?.description.contains("SECRET-VALUE") == false)
      #expect(!FileManager.default.fileExists(atPath: badFile.path))
      let aside = try listing(directory).filter { $0.contains(".json.corrupt-") }
      #expect(aside.count == 1)
      #expect(aside.first?.hasPrefix(badFile.lastPathComponent) == true)

      #expect(try await store.load(badKey) == nil)
      #expect(try await store.load(good.key) == good)
      #expect(try await store.loadAll().sessions == [good])
      #expect(try await store.loadAll().failures.isEmpty)
    }
  }

  @Test func loadAllReportsCorruptFilesAndReturnsTheRest() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let first = try await store.save(sampleSession("1"), expectedVersion: nil)
      let second = try await store.save(sampleSession("2"), expectedVersion: nil)
      let bad = try sessionFile(directory, SessionKey(provider: "line", subject: "3"))
      try Data("not json".utf8).write(to: bad)

      let snapshot = try await store.loadAll()
      #expect(snapshot.sessions == [first, second])
      let failure = try #require(snapshot.failures.first)
      #expect(snapshot.failures.count == 1)
      #expect(failure.error.code == .storageCorrupt)
      #expect(failure.location == bad.path)
      let aside = try #require(failure.quarantinedAt)
      #expect(FileManager.default.fileExists(atPath: aside))
      #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data("not json".utf8))
    }
  }

  @Test func truncatedJSONIsCorrupt() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let session = try await store.save(sampleSession(), expectedVersion: nil)
      let file = try sessionFile(directory, session.key)
      let data = try Data(contentsOf: file)
      try data.prefix(data.count / 2).write(to: file)
      let error = await #expect(throws: AuthError.self) { try await store.load(session.key) }
      #expect(error?.code == .storageCorrupt)
      #expect(error?.message.contains("token-value") == false)
    }
  }

  @Test func fileHoldingAnotherKeyIsCorrupt() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let alice = try await store.save(sampleSession("alice"), expectedVersion: nil)
      let mallory = SessionKey(provider: .twitter, subject: "mallory")
      try FileManager.default.copyItem(
        at: sessionFile(directory, alice.key), to: sessionFile(directory, mallory))
      let error = await #expect(throws: AuthError.self) { try await store.load(mallory) }
      #expect(error?.code == .storageCorrupt)
      #expect(try await store.load(alice.key) == alice)
    }
  }

  @Test func oversizedFileIsCorruptWithoutBeingRead() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let key = sampleSession().key
      try Data(count: FileSessionStore.maximumFileSize + 1).write(to: sessionFile(directory, key))
      let error = await #expect(throws: AuthError.self) { try await store.load(key) }
      #expect(error?.code == .storageCorrupt)
      #expect(error?.message.contains("larger than") == true)
    }
  }

  @Test func symlinksAndDirectoriesAreCorrupt() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let target = directory.deletingLastPathComponent()
        .appendingPathComponent("elsewhere-\(UUID().uuidString)")
      try Data("secret elsewhere".utf8).write(to: target)
      defer { try? FileManager.default.removeItem(at: target) }
      let linked = SessionKey(provider: .twitter, subject: "link")
      try FileManager.default.createSymbolicLink(
        at: sessionFile(directory, linked), withDestinationURL: target)
      let folder = SessionKey(provider: .twitter, subject: "folder")
      try FileManager.default.createDirectory(
        at: sessionFile(directory, folder), withIntermediateDirectories: false)

      let snapshot = try await store.loadAll()
      #expect(snapshot.sessions.isEmpty)
      #expect(snapshot.failures.map(\.error.code) == [.storageCorrupt, .storageCorrupt])
      #expect(FileManager.default.fileExists(atPath: target.path))  // the link moved, not it
    }
  }

  @Test func fileFromANewerFormatIsLeftAlone() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let key = sampleSession().key
      let file = try sessionFile(directory, key)
      try Data("{\"format\": 2, \"future\": true}".utf8).write(to: file)
      let error = await #expect(throws: AuthError.self) { try await store.load(key) }
      #expect(error?.code == .storageFailed)
      let saveError = await #expect(throws: AuthError.self) {
        try await store.save(sampleSession(), expectedVersion: nil)
      }
      #expect(saveError?.code == .storageFailed)
      #expect(FileManager.default.fileExists(atPath: file.path))
      #expect(try await store.loadAll().failures.map(\.quarantinedAt) == [nil])
    }
  }

  @Test func savingOverACorruptRecordSetsItAsideAndInserts() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let session = sampleSession()
      try Data("garbage".utf8).write(to: sessionFile(directory, session.key))
      let conflict = await #expect(throws: AuthError.self) {
        try await store.save(session, expectedVersion: 1)
      }
      #expect(conflict?.code == .storageConflict)
      #expect(try await store.save(session, expectedVersion: nil).version == 1)
      #expect(try listing(directory).filter { $0.contains(".corrupt-") }.count == 1)
    }
  }

  /// A record set aside as corrupt keeps its version, like a delete: the record created next
  /// continues after it, so a session still holding that version can never match (or
  /// compare-and-delete) the new one.
  @Test func aRecordSetAsideAsCorruptKeepsVersionsMonotonic() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      var stored = try await store.save(sampleSession(), expectedVersion: nil)
      for _ in 0..<2 { stored = try await store.save(stored, expectedVersion: stored.version) }
      #expect(stored.version == 3)
      // Still JSON with its version, but the credential is unreadable.
      let file = try sessionFile(directory, stored.key)
      let text = try String(contentsOf: file, encoding: .utf8)
      try Data(text.replacingOccurrences(of: "\"accessToken\"", with: "\"lost\"").utf8)
        .write(to: file)
      let error = await #expect(throws: AuthError.self) { try await store.load(stored.key) }
      #expect(error?.code == .storageCorrupt)
      let recreated = try await store.save(sampleSession(), expectedVersion: nil)
      #expect(recreated.version == 4)
      #expect(try await store.delete(stored.key, ifVersion: 3) == false)
      #expect(try await store.load(stored.key) == recreated)
    }
  }

  @Test func loadAllIgnoresTemporaryLockAndSetAsideFiles() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let session = try await store.save(sampleSession(), expectedVersion: nil)
      let stem = FileSessionStore.stem(for: session.key)
      for name in [
        ".\(stem).json.tmp-0011", "\(stem).json.corrupt-1-ab", "\(stem).lease", ".hidden.json",
        "notes.txt",
      ] {
        try Data("junk".utf8).write(to: directory.appendingPathComponent(name))
      }
      let snapshot = try await store.loadAll()
      #expect(snapshot.sessions == [session])
      #expect(snapshot.failures.isEmpty)
    }
  }
}
