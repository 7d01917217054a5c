import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The built `sociallogin` binary with `--store redis://...` and `--store unix://...`
/// (`StoreLocation.openShared`): a login lands in the test's redis-server, not in a directory,
/// and `token` and `status` read it back from there, as another machine's CLI would.
@Suite(
  .oneCLIAtATime,
  .redisAvailable,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIRedisStoreTests {
  @Test(arguments: [false, true])
  func loginTokenAndStatusUseTheRedisStore(overUnixSocket: Bool) async throws {
    let home = try CLIProcess.makeHome("cli-redis")
    defer { try? FileManager.default.removeItem(at: home) }
    try await RedisFixture.withOwn { server in
      try await ProviderEmulator.run(accessTokenTTL: 120) { emulator in
        let store = overUnixSocket ? "unix://\(server.unixSocket)?db=3" : server.url + "/3"
        let login = try await CLIProcess.login(
          ["twitter", "--emulator", emulator.host.description, "--store", store], home: home)
        #expect(login.status == 0, "\(login.stderr)")
        let identity = try JSONValue(parsing: Array(login.stdout.utf8))
        let subject = try #require(identity["subject"]?.stringValue)

        // The session is in Redis (database 3), and no session file was written.
        let redis = try await RedisSessionStore.connect(
          url: store, sealing: .keyRing(TestSealing.cliRing(home: home)))
        let stored = try await redis.loadAll().sessions
        #expect(stored.map(\.key) == [SessionKey(provider: .twitter, subject: subject)])
        let sessions = home.appendingPathComponent("sociallogin/sessions")
        #expect(!FileManager.default.fileExists(atPath: sessions.path))

        let token = try await CLIProcess.run(
          ["token", "--provider", "twitter", "--store", store], home: home)
        #expect(token.status == 0, "\(token.stderr)")
        #expect(token.stdout == (stored.first?.credential.accessToken.revealed ?? "-") + "\n")

        // A refresh through the CLI writes the rotated tokens back to Redis.
        emulator.clearRequests()
        let fresh = try await CLIProcess.run(
          ["token", "--provider", "twitter", "--force-refresh", "--store", store], home: home)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout != token.stdout)
        #expect(
          emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token").count
            == 1)
        let after = try #require(try await redis.loadAll().sessions.first)
        #expect(fresh.stdout == after.credential.accessToken.revealed + "\n")
        #expect(after.version > (stored.first?.version ?? .max))

        let status = try await CLIProcess.run(["status", "--json", "--store", store], home: home)
        #expect(status.status == 0, "\(status.stderr)")
        let rows = try #require(try JSONValue(parsing: Array(status.stdout.utf8)).arrayValue)
        #expect(rows.map { $0["subject"]?.stringValue } == [subject])

        // Another database of the same server holds nothing: the URL's database counts.
        let other = try await CLIProcess.run(
          [
            "status", "--json", "--store",
            overUnixSocket ? "unix://\(server.unixSocket)" : server.url,
          ],
          home: home)
        #expect(try JSONValue(parsing: Array(other.stdout.utf8)) == [])
        redis.client.close()
      }
    }
  }

  @Test func anUnreachableRedisIsAClearErrorNotASignOut() async throws {
    let home = try CLIProcess.makeHome("cli-redis")
    defer { try? FileManager.default.removeItem(at: home) }
    let port = try RedisTestServer.freePort()
    let result = try await CLIProcess.run(
      ["status", "--store", "redis://127.0.0.1:\(port)"], home: home)
    #expect(result.status != 0)
    #expect(result.stderr.contains("127.0.0.1:\(port)"), "\(result.stderr)")
  }

  /// `--store rediss://`: the CA comes from the CLI's environment (`SOCIALLOGIN_REDIS_CA_FILE`);
  /// without it the server's certificate is untrusted and the CLI says so.
  @Test(.enabled(if: TLSRedisServer.shouldRun, "redis-server has no TLS"))
  func statusReadsARedissStoreWithTheCAFromTheEnvironment() async throws {
    let home = try CLIProcess.makeHome("cli-rediss")
    defer { try? FileManager.default.removeItem(at: home) }
    try await TLSRedisServer.withOwn { server in
      let store = server.url(ca: .some(nil))
      let environment = [
        RedisConfiguration.caFileEnvironmentVariable: server.certificates.ca,
        "SOCIALLOGIN_SEALING_KEY_FILE": TestSealing.keyFile,
      ]
      // Long timeouts: a hang guard on a loaded machine, not a speed check.
      var configuration = try RedisConfiguration(url: store, environment: environment)
      configuration.connectTimeout = .seconds(30)
      configuration.commandTimeout = .seconds(30)
      let saver = RedisSessionStore(
        client: RedisClient(configuration: configuration), sealing: TestSealing.sealing,
        options: RedisSessionStore.Options())
      let saved = try await saver.save(
        StoredSession(
          key: SessionKey(provider: .twitter, subject: "over-tls"),
          credential: Credential(accessToken: "at", refreshToken: "rt")),
        expectedVersion: nil)
      saver.client.close()
      let status = try await CLIProcess.run(
        ["status", "--json", "--store", store], home: home, environment: environment)
      #expect(status.status == 0, "\(status.stderr)")
      #expect(status.stdout.contains(saved.key.subject), "\(status.stdout)")
      let untrusted = try await CLIProcess.run(["status", "--store", store], home: home)
      #expect(untrusted.status != 0)
      #expect(untrusted.stderr.contains("not trusted"), "\(untrusted.stderr)")
    }
  }
}

extension CLIProcess {
  /// Runs `login` and plays the browser: GET the printed URL (the emulator auto-approves and
  /// redirects to the CLI's loopback callback).
  static func login(_ arguments: [String], home: URL) async throws -> Result {
    let login = try await login(arguments, home: home, environment: [:])
    #expect(login.pageStatus == 200, "callback page")
    return login.result
  }
}
