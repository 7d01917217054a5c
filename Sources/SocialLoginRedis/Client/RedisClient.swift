import Foundation
import SocialLogin
import SocialLoginCrypto
import Synchronization

/// A small Redis client over POSIX sockets: RESP2 and RESP3 replies, a bounded connection
/// pool, pipelining, scripts by SHA, and pub/sub listeners. No Foundation networking, no
/// package dependencies.
///
/// ```swift
/// let client = try RedisClient(url: "redis://127.0.0.1:6379/0")
/// try await client.send(["SET", "k", "v", "PX", "1000"])
/// let replies = try await client.pipeline([["GET", "k"], ["PTTL", "k"]])
/// ```
///
/// Replies are untrusted: a malformed or oversized one throws ``RedisError`` (kind
/// ``RedisError/Kind/protocolViolation`` or ``RedisError/Kind/replyTooLarge``) and the
/// connection is closed. A command whose connection broke mid-flight throws
/// ``RedisError/Kind/connectionLost`` and is not retried (it may have run); the next command
/// reconnects, with backoff.
public final class RedisClient: Sendable {
  /// The configuration the client was created with.
  public let configuration: RedisConfiguration
  let pool: RedisConnectionPool
  /// Single node or Redis Cluster, found out on first use (see `RedisClient+Cluster.swift`).
  let topology = RedisTopology()
  /// ``commandsSent``.
  let sent = Atomic<Int>(0)

  /// How many commands callers have sent through this client: each command of a pipeline
  /// counts once, a script counts as one command whatever it runs on the server, and a
  /// cluster's resends after a redirect do not count again. The figure the server's
  /// `total_commands_processed` cannot give (it also counts every call inside a script), for
  /// metrics and `sociallogin-bench`. Lease renewals and the subscription use connections of
  /// their own and are not counted.
  public var commandsSent: Int { sent.load(ordering: .relaxed) }

  /// Creates a client. Nothing connects until the first command.
  public init(configuration: RedisConfiguration) {
    self.configuration = configuration
    pool = RedisConnectionPool(configuration: configuration)
  }

  /// Creates a client from a `redis://` or `unix://` URL; see
  /// ``RedisConfiguration/init(url:environment:)``.
  public convenience init(url: String) throws(RedisError) {
    self.init(configuration: try RedisConfiguration(url: url))
  }

  /// The thread that reads every Redis reply of the process, as a task executor; `nil` when
  /// that thread could not be started.
  ///
  /// A task that sends one command at a time and does little in between (a batch job, a
  /// load generator) can run under `withTaskExecutorPreference(RedisClient.executor) { … }`:
  /// its awaits then resume on the reading thread right after the reply is parsed, instead of
  /// being handed to another thread for each reply (a wake-up and a context switch, about a
  /// third of the client's CPU time per unpipelined command in
  /// `sociallogin-bench replicas-unpipelined`). While such a task runs no other reply is
  /// read, so it must never block or compute for long; by default (no preference) nothing
  /// runs there.
  public static var executor: (any TaskExecutor)? { RedisPoller.shared?.executor }

  /// Sends one command and returns its reply.
  ///
  /// - Throws: ``RedisError`` of kind ``RedisError/Kind/server`` when the server answers with
  ///   an error, or the connection, timeout and protocol kinds.
  @discardableResult
  public func send(_ command: RedisCommand) async throws -> RESPValue {
    let reply = try await execute([command])[0]
    if case .error(let message) = reply {
      throw RedisError(
        .server, "Redis refused \(command.name).", serverMessage: String(message.prefix(500)))
    }
    return reply
  }

  /// Sends every command in one write and returns one reply per command, in order. A command
  /// the server refuses gives a ``RESPValue/error(_:)`` in its place; the others still run.
  ///
  /// - Parameters:
  ///   - commands: The commands to send, in order.
  ///   - timeout: How long the whole pipeline may take; the configuration's command timeout by
  ///     default.
  public func pipeline(_ commands: [RedisCommand], timeout: Duration? = nil) async throws
    -> [RESPValue]
  {
    guard !commands.isEmpty else { return [] }
    return try await execute(commands, timeout: timeout)
  }

  /// Runs `script` by `EVALSHA`; when the server does not know it (`NOSCRIPT`: Redis empties
  /// its script cache on restart and failover), sends it once by `EVAL`, which caches it again.
  ///
  /// Every key the script touches must be in `keys` (and, on a cluster, in one hash slot).
  public func evaluate(_ script: RedisScript, keys: [String], arguments: [[UInt8]]) async throws
    -> RESPValue
  {
    try await evaluate(script, keys: keys, arguments: arguments, alongside: [])
  }

  /// ``evaluate(_:keys:arguments:)`` in one pipeline with `alongside` (sent after the script,
  /// their replies ignored; not resent when the script has to be sent again by `EVAL`).
  func evaluate(
    _ script: RedisScript, keys: [String], arguments: [[UInt8]], alongside: [RedisCommand]
  ) async throws -> RESPValue {
    try await runScript(
      script, keys: keys, arguments: arguments, alongside: alongside, resendAlongside: false)[0]
  }

  /// The one `EVALSHA` → `EVAL` fallback: runs `script` by its SHA with `alongside` in one
  /// pipeline; on `NOSCRIPT` (the server emptied its script cache: a restart, a failover)
  /// sends it once by `EVAL`, which caches it again, with `alongside` again only when
  /// `resendAlongside` (commands that must follow the script on its connection, as `WAIT`).
  /// Returns every reply, the script's first (only the script's when `alongside` was not
  /// resent).
  ///
  /// - Throws: ``RedisError`` ``RedisError/Kind/server`` when the script is refused.
  func runScript(
    _ script: RedisScript, keys: [String], arguments: [[UInt8]], alongside: [RedisCommand],
    resendAlongside: Bool
  ) async throws -> [RESPValue] {
    var tail = [Array(String(keys.count).utf8)] + keys.map { Array($0.utf8) }
    tail += arguments
    let call = RedisCommand(arguments: [Array("EVALSHA".utf8), Array(script.sha1.utf8)] + tail)
    var replies = try await execute([call] + alongside)
    if case .error(let message) = replies[0], message.hasPrefix("NOSCRIPT") {
      let eval = RedisCommand(arguments: [Array("EVAL".utf8), Array(script.source.utf8)] + tail)
      replies = try await execute([eval] + (resendAlongside ? alongside : []))
    }
    if case .error(let message) = replies[0] {
      throw RedisError(
        .server, "Redis refused the \(script.name) script.",
        serverMessage: String(message.prefix(500)))
    }
    return replies
  }

  deinit {
    pool.close()
    topology.close()
  }

  /// Closes idle connections; later commands fail with ``RedisError/Kind/closed``.
  public func close() {
    pool.close()
    topology.close()
  }
}

/// A Lua script, sent by its SHA-1 and loaded on demand.
public struct RedisScript: Sendable, Hashable {
  /// A short name for error messages.
  public let name: String
  /// The Lua source.
  public let source: String
  /// The lower-case hex SHA-1 of ``source``, as `EVALSHA` wants it.
  public let sha1: String

  /// Creates a script.
  public init(name: String, source: String) {
    self.name = name
    self.source = source
    let digest = SHA1.hash(Array(source.utf8))
    sha1 = HexEncoding.lowercase(digest)
  }
}
