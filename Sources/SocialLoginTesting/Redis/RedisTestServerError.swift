/// Why a ``RedisTestServer`` could not start: a typed failure with redis-server's own last
/// words, so a broken fixture fails the test with its cause instead of hanging it.
public struct RedisTestServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable, Hashable {
    /// `redis-server` is not on `PATH`. Suites with the `.redisAvailable` trait are skipped
    /// instead, unless `CI` is set: there a missing server must fail the run.
    case notInstalled
    /// The process could not be started (fork or exec failed, or its directory could not be
    /// created).
    case spawnFailed
    /// redis-server exited while starting, usually for a bad argument or configuration:
    /// ``RedisTestServerError/output`` says why.
    case exitedAtStart
    /// redis-server did not answer `PING` within the readiness timeout.
    case notReady
    /// Every free port tried was taken by someone else before redis-server bound it (or, on
    /// restart, its own port was).
    case portUnavailable
  }

  /// What went wrong.
  public let code: Code
  /// One sentence naming the cause (and the port, status or timeout involved).
  public let message: String
  /// The last lines redis-server wrote to stdout and stderr; empty when it never ran.
  public let output: String

  /// Creates an error; the fixture throws these, tests may build them to compare.
  public init(_ code: Code, _ message: String, output: String = "") {
    self.code = code
    self.message = message
    self.output = output
  }

  /// The message, then redis-server's last lines if any.
  public var description: String {
    output.isEmpty ? message : "\(message)\nredis-server's last output:\n\(output)"
  }
}
