import Foundation
import SocialLogin

/// Where a Redis server is and how to talk to it: endpoint, credentials, database, timeouts and
/// pool size.
///
/// Most services build it from a URL:
///
/// ```swift
/// // redis://[user[:password]@]host[:port][/db]   unix:///run/redis.sock?db=2
/// let configuration = try RedisConfiguration(url: "redis://app@10.0.0.5:6379/1")
/// // The password may come from SOCIALLOGIN_REDIS_PASSWORD instead of the URL, which keeps it
/// // out of process listings and shell history.
/// ```
///
/// ## TLS
/// There is no TLS in this package: the toolchain has no TLS without package dependencies. To
/// reach a Redis that requires TLS (managed services, `rediss://`), run a local TLS sidecar and
/// point the client at its plain loopback or Unix-socket end, for example `stunnel` with
/// `[redis] client = yes; accept = 127.0.0.1:6380; connect = redis.example.net:6380`, then
/// `redis://127.0.0.1:6380`. A `rediss://` URL is refused with a message saying so rather than
/// silently sending credentials in clear.
public struct RedisConfiguration: Sendable {
  /// How to reach the server.
  public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// A TCP host name or address and port.
    case tcp(host: String, port: UInt16)
    /// A Unix domain socket path.
    case unix(path: String)

    /// `host:port` or the socket path.
    public var description: String {
      switch self {
      case .tcp(let host, let port):
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
      case .unix(let path): return "unix:\(path)"
      }
    }
  }

  /// The environment variable read for a password when the URL has none.
  public static let passwordEnvironmentVariable = "SOCIALLOGIN_REDIS_PASSWORD"

  /// The server.
  public var endpoint: Endpoint
  /// The ACL user (`AUTH user password`); `nil` authenticates as `default` with a password only.
  public var username: String?
  /// The password, if the server requires one.
  public var password: Secret?
  /// The logical database (`SELECT n`); 0 by default.
  public var database: Int
  /// How long establishing a connection (including `AUTH` and `SELECT`) may take.
  public var connectTimeout: Duration
  /// How long one command or pipeline may wait for its replies.
  public var commandTimeout: Duration
  /// The most connections the pool opens (at least 1). Default 8.
  public var maximumConnections: Int
  /// An idle connection unused for longer than this is checked with `PING` before reuse.
  public var healthCheckInterval: Duration
  /// How reconnects are spaced after failures (exponential, with jitter).
  public var reconnectBackoff: BackoffPolicy
  /// How many times one command tries to connect before failing.
  public var connectAttempts: Int
  /// Limits on replies.
  public var limits: RESPLimits

  /// Creates a configuration.
  public init(
    endpoint: Endpoint, username: String? = nil, password: Secret? = nil, database: Int = 0,
    connectTimeout: Duration = .seconds(2), commandTimeout: Duration = .seconds(2),
    maximumConnections: Int = 8, healthCheckInterval: Duration = .seconds(30),
    reconnectBackoff: BackoffPolicy = BackoffPolicy(
      baseDelay: .milliseconds(25), maximumDelay: .seconds(1), jitter: .equal),
    connectAttempts: Int = 3, limits: RESPLimits = .default
  ) {
    self.endpoint = endpoint
    self.username = username
    self.password = password
    self.database = database
    self.connectTimeout = connectTimeout
    self.commandTimeout = commandTimeout
    self.maximumConnections = max(1, maximumConnections)
    self.healthCheckInterval = healthCheckInterval
    self.reconnectBackoff = reconnectBackoff
    self.connectAttempts = max(1, connectAttempts)
    self.limits = limits
  }

  /// Parses `redis://[user[:password]@]host[:port][/db]` or `unix:///path[?db=N]`.
  ///
  /// User and password are percent-decoded. Without a password in the URL,
  /// `environment[`` passwordEnvironmentVariable ``]` is used when set and not empty. A
  /// `unix:` URL may carry `user=` and `db=` query items (a password only from the environment).
  ///
  /// - Throws: ``RedisError`` of kind ``RedisError/Kind/configuration`` for another scheme
  ///   (including `rediss://`, see TLS above), a missing host, a bad port or database.
  public init(
    url text: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(RedisError) {
    guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased()
    else {
      throw RedisError(.configuration, "Not a URL; expected redis://host:port/db or unix:///path.")
    }
    var username: String?
    var password: Secret?
    var database = 0
    let endpoint: Endpoint
    switch scheme {
    case "redis":
      guard let host = components.host, !host.isEmpty else {
        throw RedisError(.configuration, "A redis:// URL needs a host.")
      }
      let port = components.port ?? 6379
      guard (1...65535).contains(port) else {
        throw RedisError(.configuration, "The port \(port) is out of range.")
      }
      endpoint = .tcp(host: host, port: UInt16(port))
      username = components.user.flatMap { $0.removingPercentEncoding ?? $0 }
      password = components.password.map { Secret($0.removingPercentEncoding ?? $0) }
      let path = components.path.drop { $0 == "/" }
      if !path.isEmpty {
        guard let number = Int(path), number >= 0 else {
          throw RedisError(.configuration, "The database must be a number, not \"\(path)\".")
        }
        database = number
      }
    case "unix":
      guard !components.path.isEmpty else {
        throw RedisError(.configuration, "A unix:// URL needs a socket path (unix:///path).")
      }
      endpoint = .unix(path: components.path)
      for item in components.queryItems ?? [] {
        switch item.name {
        case "db":
          guard let value = item.value, let number = Int(value), number >= 0 else {
            throw RedisError(.configuration, "The db query item must be a number.")
          }
          database = number
        case "user": username = item.value
        default:
          throw RedisError(
            .configuration, "Unknown query item \"\(item.name)\" in the unix:// URL.")
        }
      }
    case "rediss":
      throw RedisError(
        .configuration,
        "rediss:// (TLS) is not supported without package dependencies; run a TLS sidecar such "
          + "as stunnel on loopback and use redis://127.0.0.1:<port> (see RedisConfiguration).")
    default:
      throw RedisError(.configuration, "Unsupported scheme \"\(scheme)\"; use redis:// or unix://.")
    }
    if password == nil, let fromEnvironment = environment[Self.passwordEnvironmentVariable],
      !fromEnvironment.isEmpty
    {
      password = Secret(fromEnvironment)
    }
    if username?.isEmpty == true { username = nil }
    self.init(endpoint: endpoint, username: username, password: password, database: database)
  }
}
