import Foundation
import Testing

@testable import SocialLogin

/// The file store's link files under attack: planted, copied, garbled, linked away. Nothing
/// a writer of the directory plants puts a key under an account it is not linked to.
@Suite(.timeLimit(.minutes(1))) struct FileAccountLinkHostileTests {
  let ada = SessionKey(provider: .line, subject: "ada-line")
  let mallorysKey = SessionKey(provider: .facebook, subject: "mallory-fb")

  func sealed(_ directory: URL) throws -> FileSessionStore {
    try FileSessionStore(
      directory: directory,
      sealing: StorageFileStoreSealingTests.ring(StorageFileStoreSealingTests.keyA))
  }

  func file(_ directory: URL, _ name: String) -> URL { directory.appendingPathComponent(name) }

  @Test func aPlantedIndexEntryForAnotherUsersKeyIsIgnored() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let adasAccount = try AccountID("ada")
      let mallory = try AccountID("mallory")
      try await store.link(ada, to: adasAccount)
      try await store.link(mallorysKey, to: mallory)
      // Mallory rewrites her own index to list Ada's key.
      let planted = FileAccountIndex(format: 1, account: mallory, keys: [ada, mallorysKey])
      try JSONEncoder().encode(planted).write(
        to: file(directory, FileSessionStore.indexFileName(mallory)))
      #expect(try await store.sessionKeys(of: mallory) == [mallorysKey])
      #expect(try await store.sessionKeys(of: adasAccount) == [ada])
    }
  }

  @Test func aSealedIndexCopiedToAnotherAccountDoesNotOpen() async throws {
    try await withTemporaryDirectory { directory in
      let store = try sealed(directory)
      let adasAccount = try AccountID("ada")
      let mallory = try AccountID("mallory")
      try await store.link(ada, to: adasAccount)
      try FileManager.default.copyItem(
        at: file(directory, FileSessionStore.indexFileName(adasAccount)),
        to: file(directory, FileSessionStore.indexFileName(mallory)))
      await expectAuthError(.storageTampered) {
        try await store.sessionKeys(of: mallory)
      }
      #expect(try await store.sessionKeys(of: adasAccount) == [ada])
    }
  }

  @Test func aSealedLinkCopiedOverAnotherKeysLinkDoesNotOpen() async throws {
    try await withTemporaryDirectory { directory in
      let store = try sealed(directory)
      let mallory = try AccountID("mallory")
      try await store.link(mallorysKey, to: mallory)
      try await store.link(ada, to: try AccountID("ada"))
      // Mallory copies her link over Ada's, hoping Ada's key becomes hers.
      let target = file(directory, FileSessionStore.linkFileName(ada))
      try FileManager.default.removeItem(at: target)
      try FileManager.default.copyItem(
        at: file(directory, FileSessionStore.linkFileName(mallorysKey)), to: target)
      await expectAuthError(.storageTampered) { try await store.account(of: ada) }
      // Her index does not list Ada's key either, planted or not.
      #expect(try await store.sessionKeys(of: mallory) == [mallorysKey])
      await expectAuthError(.storageTampered) { try await store.unlink(ada) }
      #expect(FileManager.default.fileExists(atPath: target.path), "left in place")
    }
  }

  @Test func sealedLinkFilesShowNoAccountOrSubjectInClear() async throws {
    try await withTemporaryDirectory { directory in
      let store = try sealed(directory)
      try await store.link(ada, to: try AccountID("account-in-clear"))
      for name in try listing(directory) where name.hasSuffix(".link") || name.hasSuffix(".links") {
        let bytes = try Data(contentsOf: file(directory, name))
        #expect(SealingKeyRing.isSealed(Array(bytes)))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("account-in-clear") && !text.contains("ada-line"))
        #expect(permissions(file(directory, name).path) == 0o600)
      }
    }
  }

  @Test func garbageLinkFilesAreTypedErrorsAndUnlinkClearsThem() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let path = file(directory, FileSessionStore.linkFileName(ada))
      for garbage in [
        "", "{", #"{"format":1}"#,
        #"{"format":1,"key":{"provider":"line","subject":"x"},"account":"a"}"#,
        #"{"format":1,"key":{"provider":"line","subject":"ada-line"},"account":""}"#,
      ] {
        try Data(garbage.utf8).write(to: path)
        await expectAuthError(.storageCorrupt) {
          try await store.account(of: ada)
        }
        await expectAuthError(.storageCorrupt) {
          try await store.link(ada, to: try AccountID("ada"))
        }
        #expect(try await store.unlink(ada) == nil)
        #expect(!FileManager.default.fileExists(atPath: path.path))
      }
      try await store.link(ada, to: try AccountID("ada"))
      #expect(try await store.account(of: ada) == AccountID("ada"))
    }
  }

  @Test func aSymbolicLinkIsRefusedNotFollowed() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let outside = directory.appendingPathComponent("outside")
      try Data("secret".utf8).write(to: outside)
      try FileManager.default.createSymbolicLink(
        at: file(directory, FileSessionStore.linkFileName(ada)), withDestinationURL: outside)
      await expectAuthError(.storageFailed) { try await store.account(of: ada) }
    }
  }

  @Test func linkFilesAreNotSessions() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      try await store.link(ada, to: try AccountID("ada"))
      let snapshot = try await store.loadAll()
      #expect(snapshot.sessions.isEmpty)
      #expect(snapshot.failures.isEmpty)
    }
  }
}
