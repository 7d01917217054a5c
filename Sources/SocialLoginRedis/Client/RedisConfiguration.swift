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
/// `rediss://` connects with TLS (see ``TLS``): on Linux through the system's OpenSSL 3
/// (`libssl.so.3`, loaded at run time, so nothing beyond the toolchain is needed to build),
/// verifying the certificate chain against the system's trust store — or, given a CA file
/// (`?ca=PATH` or `SOCIALLOGIN_REDIS_CA_FILE`), against that file alone, with `ca=system` to
/// add the system's roots back — and the host name, with a client
/// certificate for mutual TLS and SNI. Nothing is sent before the handshake succeeded and a
/// failure never falls back to plaintext. On other platforms `rediss://` fails with
/// ``RedisError/Kind/tlsUnavailable``: run a local TLS sidecar (`stunnel` with
/// `[redis] client = yes; accept = 127.0.0.1:6380; connect = redis.example.net:6380`) and use
/// `redis://127.0.0.1:6380`.
///
/// ## Topology hosts
/// The hosts sentinels and cluster nodes name (and `MOVED`/`ASK` targets) must match
/// `tls-host=` (``HostPattern``; by default the URL host's domain, or any IP address for an IP
/// URL), for plaintext as for TLS, and are checked before anything is sent to them.
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
  /// TLS for a ``Endpoint/tcp(host:port:)`` endpoint (`rediss://`); `nil` is plaintext.
  public var tls: TLS?
  /// The sentinels that name the master (`redis-sentinel://`); `nil` connects to
  /// ``endpoint``. With sentinels, ``endpoint`` is only the first sentinel's address (for
  /// messages): connections go to the master the sentinels name, and the credentials,
  /// database and TLS settings above are the master's.
  public var sentinel: Sentinel?
  /// The hosts sentinels and cluster nodes may send this client to (see ``HostPattern``; the
  /// URL's `tls-host=`); `nil` derives them from ``endpoint``'s host (or the sentinels'
  /// hosts), so a topology cannot lead the client, and its password, to another domain.
  public var topologyHosts: HostPattern?

  /// Creates a configuration.
  public init(
    endpoint: Endpoint, username: String? = nil, password: Secret? = nil, database: Int = 0,
    connectTimeout: Duration = .seconds(2), commandTimeout: Duration = .seconds(2),
    maximumConnections: Int = 8, healthCheckInterval: Duration = .seconds(30),
    reconnectBackoff: BackoffPolicy = BackoffPolicy(
      baseDelay: .milliseconds(25), maximumDelay: .seconds(1), jitter: .equal),
    connectAttempts: Int = 3, limits: RESPLimits = .default, tls: TLS? = nil,
    sentinel: Sentinel? = nil, topologyHosts: HostPattern? = nil
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
    self.tls = tls
    self.sentinel = sentinel
    self.topologyHosts = topologyHosts
  }

  /// Parses `redis://[user[:password]@]host[:port][/db][?tls-host=PATTERN]`,
  /// `rediss://[user[:password]@]host[:port][/db][?ca=PATH&ca=system&cert=PATH&key=PATH&tls-host=PATTERN]`
  /// (TLS, see ``TLS``: `ca=PATH` is the only trusted root unless `ca=system` is also given),
  /// `unix:///path[?db=N]`, or
  /// `redis-sentinel://[user[:password]@]host[:port][,host[:port]...][/db]#mastername` and
  /// `rediss-sentinel://...` (Redis Sentinel, see ``Sentinel``; the form Lettuce reads).
  ///
  /// In a sentinel URL the hosts are the sentinels (port 26379 when omitted), the credentials
  /// and database are the master's, and the sentinels' own password may come from
  /// ``sentinelPasswordEnvironmentVariable``. `rediss-sentinel://` speaks TLS to the sentinels
  /// and to the master, each verified against its own host (the master's is the address the
  /// sentinels announce), with the same `ca=`, `cert=` and `key=` as `rediss://`.
  ///
  /// `tls-host=` (comma-separated, may repeat) sets ``topologyHosts``: the hosts a sentinel or
  /// a cluster may send the client to (see ``HostPattern``); a partial wildcard
  /// (`a*.example.com`) is refused here.
  ///
  /// User and password are percent-decoded. Without a password in the URL,
  /// `environment[`` passwordEnvironmentVariable ``]` is used when set and not empty. A
  /// `unix:` URL may carry `user=` and `db=` query items (a password only from the environment).
  /// A `rediss://` URL without `ca=`, `cert=` or `key=` takes them from
  /// ``caFileEnvironmentVariable``, ``certificateFileEnvironmentVariable`` and
  /// ``keyFileEnvironmentVariable`` in `environment`; those variables never apply to a
  /// `redis://` URL, so they can choose the trusted roots but never turn TLS on or off.
  ///
  /// - Parameters:
  ///   - text: The URL.
  ///   - environment: Where the password and TLS file variables are read: the process's
  ///     environment by default; pass `[:]` to ignore it.
  /// - Throws: ``RedisError`` of kind ``RedisError/Kind/configuration`` for another scheme, a
  ///   missing host, a bad port or database, unknown query items, a client certificate
  ///   without its key, two CA files, TLS files on a `redis://` URL, or a `tls-host=` that is
  ///   not a valid pattern.
  public init(
    url text: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(RedisError) {
    let lowered = text.lowercased()
    if lowered.hasPrefix("redis-sentinel://") || lowered.hasPrefix("rediss-sentinel://") {
      self = try Self.sentinel(url: text, environment: environment)
      return
    }
    guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased()
    else {
      throw RedisError(
        .configuration, "Not a URL; expected redis://host:port/db, rediss://... or unix:///path.")
    }
    var username: String?
    var password: Secret?
    var database = 0
    var tls: TLS?
    var topologyHosts: HostPattern?
    let endpoint: Endpoint
    let query = (components.queryItems ?? []).map { (name: $0.name, value: $0.value) }
    switch scheme {
    case "redis", "rediss":
      guard let host = components.host, !host.isEmpty else {
        throw RedisError(.configuration, "A \(scheme):// URL needs a host.")
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
      let tlsItems: Set<String> = ["ca", "cert", "key"]
      if scheme == "rediss" {
        if let unknown = query.first(where: {
          !tlsItems.contains($0.name) && $0.name != "tls-host"
        }) {
          throw RedisError(
            .configuration,
            "Unknown query item \"\(unknown.name.prefix(40))\" in the rediss:// URL (ca=, "
              + "cert=, key=, tls-host=).")
        }
        tls = try Self.tls(host: host, query: query, environment: environment)
      } else if let item = query.first(where: { tlsItems.contains($0.name) }) {
        throw RedisError(
          .configuration,
          "\(item.name)= is a TLS setting and this is a plaintext redis:// URL; use rediss://.")
      }
      topologyHosts = try Self.topologyHosts(query: query)
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
    default:
      throw RedisError(
        .configuration,
        "Unsupported scheme \"\(scheme)\"; use redis://, rediss://, unix:// or "
          + "redis-sentinel://.")
    }
    if password == nil, let fromEnvironment = environment[Self.passwordEnvironmentVariable],
      !fromEnvironment.isEmpty
    {
      password = Secret(fromEnvironment)
    }
    if username?.isEmpty == true { username = nil }
    self.init(
      endpoint: endpoint, username: username, password: password, database: database, tls: tls,
      topologyHosts: topologyHosts)
  }
}
