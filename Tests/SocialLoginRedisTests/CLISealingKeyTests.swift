import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// The CLI's sealing keys: `store new-key`, the key file it creates on first use, a key file
/// it refuses, and `store reseal` after a rotation.
@Suite(.oneCLIAtATime, .redisAvailable, .needsCLIBinary, .timeLimit(.minutes(5)))
struct CLISealingKeyTests {
  @Test func newKeyPrintsALineAKeyFileAccepts() async throws {
    let home = try CLIProcess.makeHome("cli-new-key")
    defer { try? FileManager.default.removeItem(at: home) }
    let first = try await CLIProcess.run(["store", "new-key"], home: home)
    let second = try await CLIProcess.run(["store", "new-key"], home: home)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout != second.stdout)
    let ring = try SealingKeyRing(keyFile: first.stdout + second.stdout)
    #expect(ring.keyIDs.count == 2)
  }

  @Test func aRedisStoreIsSealedWithTheKeyFileMadeOnFirstUse() async throws {
    let home = try CLIProcess.makeHome("cli-sealed")
    defer { try? FileManager.default.removeItem(at: home) }
    try await RedisFixture.with { server in
      let url = server.url
      // Two first runs at once make one key file between them.
      async let one = CLIProcess.run(["status", "--store", url], home: home)
      async let two = CLIProcess.run(["status", "--store", url], home: home)
      let (a, b) = try await (one, two)
      #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
      let file = home.appendingPathComponent("sociallogin/sealing.keys").path
      let mode = try #require(
        try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
      #expect(mode & 0o077 == 0)
      // A record sealed with that file's key is what the CLI reads (default key prefix; the
      // test has a database of its own).
      let sealed = RedisSessionStore(
        client: try RedisClient(url: url), sealing: .keyRing(try TestSealing.cliRing(home: home)))
      defer { sealed.client.close() }
      let saved = try await sealed.save(
        SessionStoreContract.sampleSession("cli-sealed"), expectedVersion: nil)
      let status = try await CLIProcess.run(["status", "--json", "--store", url], home: home)
      #expect(status.status == 0, "\(status.stderr)")
      #expect(status.stdout.contains(saved.key.subject), "\(status.stdout)")
      // With another key file the record does not open: counted, left alone, exit 1.
      _ = TestSealing.ring  // writes its key file
      let wrong = try await CLIProcess.run(
        ["store", "reseal", "--store", url, "--sealing-key-file", TestSealing.keyFile],
        home: home)
      #expect(wrong.status == 1)
      #expect(wrong.stdout.contains("\"unopenable\":1"), "\(wrong.stdout)")
      #expect(try await sealed.load(saved.key) == saved)
    }
  }

  @Test func aKeyFileOthersCanReadOrThatIsMissingIsRefusedClearly() async throws {
    let home = try CLIProcess.makeHome("cli-bad-key")
    defer { try? FileManager.default.removeItem(at: home) }
    try await RedisFixture.with { server in
      let open = home.appendingPathComponent("open.keys")
      try (SealingKey.generate().keyFileLine + "\n").write(
        to: open, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open.path)
      let readable = try await CLIProcess.run(
        ["status", "--store", server.url, "--sealing-key-file", open.path], home: home)
      #expect(readable.status == 1)
      #expect(readable.stderr.contains(open.path), "\(readable.stderr)")
      #expect(readable.stderr.contains("600"), "\(readable.stderr)")
      let missing = try await CLIProcess.run(
        ["status", "--store", server.url], home: home,
        environment: ["SOCIALLOGIN_SEALING_KEY_FILE": home.appendingPathComponent("no").path])
      #expect(missing.status == 1)
      #expect(missing.stderr.contains("Sealing key file"), "\(missing.stderr)")
    }
  }

  @Test func resealAfterARotationMakesTheOldKeyUnneeded() async throws {
    let home = try CLIProcess.makeHome("cli-reseal")
    defer { try? FileManager.default.removeItem(at: home) }
    try await RedisFixture.with { server in
      let old = try SealingKey.generate(id: "old")
      let new = try SealingKey.generate(id: "new")
      let before = RedisSessionStore(
        client: try RedisClient(url: server.url),
        sealing: .keyRing(try SealingKeyRing(sealingKey: old)))
      defer { before.client.close() }
      let saved = try await before.save(
        SessionStoreContract.sampleSession("rotated"), expectedVersion: nil)
      let rotated = home.appendingPathComponent("rotated.keys")
      try (new.keyFileLine + "\n" + old.keyFileLine + "\n").write(
        to: rotated, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: rotated.path)
      let newOnly = home.appendingPathComponent("new.keys")
      try (new.keyFileLine + "\n").write(to: newOnly, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: newOnly.path)
      let report = try await CLIProcess.run(
        ["store", "reseal", "--sealing-key-file", rotated.path, "--store", server.url],
        home: home)
      #expect(report.status == 0, "\(report.stderr)")
      #expect(report.stdout.contains("\"resealed\":1"), "\(report.stdout)")
      let after = RedisSessionStore(
        client: try RedisClient(url: server.url),
        sealing: .keyRing(try SealingKeyRing.load(contentsOf: newOnly.path)))
      defer { after.client.close() }
      #expect(try await after.load(saved.key) == saved)
    }
  }
}
