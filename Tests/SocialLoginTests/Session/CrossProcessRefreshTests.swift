import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct CrossProcessRefreshTests {
  func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "sociallogin-xproc-\(UUID().uuidString)")
  }

  @Test func twoSessionActorsOnOneDirectoryRefreshOnce() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Two stores on one directory stand for two processes: flock locks are per open file
    // description, so they exclude each other exactly as two processes would.
    let storeA = try FileSessionStore(directory: directory)
    let storeB = try FileSessionStore(directory: directory)
    let fixture = SessionFixture(store: storeA)
    let initial = try await fixture.storeInitial()
    let sessionA = fixture.makeSession(record: initial, store: storeA)
    let sessionB = fixture.makeSession(record: initial, store: storeB)

    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<200 {
        let session = index.isMultiple(of: 2) ? sessionA : sessionB
        group.addTask { try await session.freshAccessToken() }
      }
      var all: Set<String> = []
      for try await token in group { all.insert(token) }
      return all
    }
    #expect(await fixture.provider.refreshCount == 1)
    #expect(tokens == ["at-1001"])
    #expect(try await storeB.load(fixture.key)?.credential.refreshToken == "rt-1001")
  }

  @Test func corruptSessionFileIsRewrittenFromMemory() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try FileSessionStore(directory: directory)
    let fixture = SessionFixture(store: store)
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".json") }
    let file = directory.appendingPathComponent(try #require(files.first))
    try Data("{ not json".utf8).write(to: file)

    #expect(try await session.freshAccessToken() == "at-1001")
    #expect(try await store.load(fixture.key)?.credential.refreshToken == "rt-1001")
    let after = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(after.contains { $0.contains(".corrupt-") }, "the unreadable file is set aside")
  }
}
