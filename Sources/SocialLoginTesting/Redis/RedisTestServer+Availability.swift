import Foundation
import SocialLogin
import Testing

extension RedisTestServer {
  /// The `redis-server` on `environment`'s `PATH`, or `nil`. Only `PATH` is searched, so a
  /// test can run as if it were not installed.
  public static func executable(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    (environment["PATH"] ?? "").split(separator: ":").map { $0 + "/redis-server" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Whether `CI` is set (to anything but empty, `0` or `false`): then a missing
  /// redis-server is a failure, not a reason to skip.
  public static func isRequired(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    !["", "0", "false"].contains((environment["CI"] ?? "").lowercased())
  }

  /// Whether `redis-server` is on the process's `PATH`.
  public static var isAvailable: Bool { executable() != nil }

  /// Whether Redis tests should run: the server is installed, or `CI` requires it (and the
  /// tests will fail with a ``RedisTestServerError`` of code `notInstalled`).
  public static var shouldRun: Bool { isAvailable || isRequired() }

  /// Prints why Redis tests are skipped, once per process.
  static func reportSkipping() {
    let first = skipReported.withLock { reported in
      defer { reported = true }
      return !reported
    }
    if first {
      FileHandle.standardError.write(Data((skipReason + "\n").utf8))
    }
  }

  static let skipReason =
    "Skipping the Redis tests: redis-server is not on PATH (apt-get install redis-server; "
    + "with CI set they fail instead)."
  private static let skipReported = Locked(false)
}

extension Trait where Self == ConditionTrait {
  /// Runs the test or suite only where a Redis test server can start: `redis-server` is on
  /// `PATH`, or `CI` is set (then a missing server fails the test, so a CI image without it
  /// cannot pass by skipping). A skip prints its reason once.
  ///
  /// ```swift
  /// @Suite(.redisAvailable) struct MyRedisTests { ... }
  /// ```
  public static var redisAvailable: Self {
    .enabled(
      "redis-server is not on PATH; apt-get install redis-server (with CI set this fails)"
    ) {
      let run = RedisTestServer.shouldRun
      if !run { RedisTestServer.reportSkipping() }
      return run
    }
  }
}
