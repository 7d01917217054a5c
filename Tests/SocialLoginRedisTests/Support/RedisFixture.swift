import Foundation
import SocialLogin
import SocialLoginTesting
import Synchronization
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#endif

/// A Redis for a test: a database of its own on the process's shared ``RedisTestServer``
/// (``with(_:)``), or a whole server of its own (``withOwn(arguments:_:)``) for a test that
/// restarts it, sets a password, flushes its script cache or counts its clients. The servers
/// are `SocialLoginTesting`'s, the product users test with; this adds what only these tests
/// need (shared databases, sealed stores, `SAVE` before a restart).
///
/// One shared server per test process instead of one per test: thirty servers starting at once
/// on two cores missed their readiness deadline. Each test that shares it gets the next of its
/// databases (`SELECT`; pub/sub channels are server-wide, so tests still use unique key
/// prefixes). Like every `RedisTestServer` it dies with the test process, even one that crashed.
///
/// Without `redis-server` on the machine the Redis suites are skipped with a message
/// (`.redisAvailable`), unless `CI` is set: then a missing server fails the run.
final class RedisFixture: Sendable {
  let process: RedisTestServer
  /// The database this test uses (`0` on a server of the test's own).
  let database: Int

  private init(process: RedisTestServer, database: Int) {
    self.process = process
    self.database = database
  }

  var port: UInt16 { process.port }
  /// `redis://127.0.0.1:PORT`, with `/DB` when the test has a database of the shared server.
  var url: String { database == 0 ? process.url : "\(process.url)/\(database)" }
  var unixSocket: String { process.unixSocket }

  /// A session store on this test's database whose commands may wait 30 s (the default 2 s is
  /// a production setting; on a loaded two-core machine queueing for a pooled connection took
  /// longer): a hang guard, not a speed check.
  func store(
    _ options: RedisSessionStore.Options, sealing: RecordSealing = TestSealing.sealing
  ) throws -> RedisSessionStore {
    var configuration = try RedisConfiguration(url: url, environment: [:])
    configuration.commandTimeout = .seconds(30)
    configuration.connectTimeout = .seconds(30)
    return RedisSessionStore(
      client: RedisClient(configuration: configuration), sealing: sealing,
      options: options)
  }

  /// Saves (`SAVE`), stops and starts again a server of the test's own (see
  /// ``withOwn(arguments:_:)``), so it comes back with the same data and an empty script cache.
  func restart(downtime: Duration = .zero, whileDown: () async throws -> Void = {}) async throws {
    guard database == 0 else { throw RedisTestError("restart needs a server of the test's own") }
    let client = try RedisClient(url: process.url)
    _ = try await client.send(["SAVE"])
    client.close()
    try await process.restart {
      try await whileDown()
      if downtime > .zero { try await Task.sleep(for: downtime) }
    }
  }

  /// The databases the shared server has (`--databases`); each `with` takes the next one.
  static let sharedDatabases = 4096
  private static let nextDatabase = Mutex(1)
  private static let shared = SharedServer()

  /// Runs `body` with a database of its own on the process's shared server.
  static func with<T>(_ body: (RedisFixture) async throws -> T) async throws -> T {
    let process = try await shared.process()
    let database = nextDatabase.withLock { next in
      defer { next += 1 }
      return next
    }
    guard database < sharedDatabases else {
      throw RedisTestError("the shared redis-server has only \(sharedDatabases) databases")
    }
    return try await body(RedisFixture(process: process, database: database))
  }

  /// Runs `body` with a fresh server of its own (`arguments` added to its command line, such
  /// as `--requirepass x`), always stopping it afterwards.
  static func withOwn<T>(arguments: [String] = [], _ body: (RedisFixture) async throws -> T)
    async throws -> T
  {
    try await RedisTestServer.with(arguments: arguments) { server in
      try await body(RedisFixture(process: server, database: 0))
    }
  }

  /// Starts the shared server on first use, once, whichever test asks first.
  private actor SharedServer {
    private var started: Task<RedisTestServer, any Error>?

    func process() async throws -> RedisTestServer {
      if let started { return try await started.value }
      let task = Task {
        try await RedisTestServer.start(
          arguments: ["--databases", String(RedisFixture.sharedDatabases)])
      }
      started = task
      return try await task.value
    }
  }
}

extension RedisTestServerError {
  /// The server exited because a port of its extra arguments (`--tls-port`, `--cluster-port`)
  /// was taken: choose others and try again. (The fixture retries its own port itself.)
  var addressInUse: Bool { code == .exitedAtStart && output.contains("Address already in use") }
}

/// Whether something accepts connections on 127.0.0.1:`port`.
func acceptsConnections(port: UInt16) -> Bool {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}

struct RedisTestError: Error, CustomStringConvertible {
  var description: String
  /// A sentinel exited while starting: its port was taken by someone else.
  var portTaken = false
  init(_ description: String, portTaken: Bool = false) {
    self.description = description
    self.portTaken = portTaken
  }
}

/// A key prefix no other test uses, so tests can share a server.
func uniquePrefix() -> String { "t\(UInt32.random(in: 0...UInt32.max))" }
