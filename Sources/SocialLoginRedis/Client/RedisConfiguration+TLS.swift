extension RedisConfiguration {
  /// How a `rediss://` connection is secured: the certificate is always verified against the
  /// trusted roots and the host name (never the subject's common name, and a wildcard only as
  /// a whole leftmost label), and the handshake completes before anything else is sent. There
  /// is no option to skip verification.
  ///
  /// The trusted roots are the system's, or only the CA file when one is given (`ca=PATH`):
  /// a private CA then vouches alone, so a publicly trusted certificate for another host (one
  /// a sentinel or cluster node could name) is refused. `ca=system` adds the system's roots
  /// back (`?ca=/etc/ssl/redis-ca.pem&ca=system`).
  ///
  /// ```swift
  /// // rediss://host:6380/0?ca=/etc/ssl/redis-ca.pem&cert=/run/client.pem&key=/run/client.key
  /// let configuration = try RedisConfiguration(url: "rediss://cache.example.net:6380")
  /// ```
  public struct TLS: Sendable, Hashable {
    /// The name checked against the server's certificate (a DNS name or an IP address) and
    /// sent as SNI (when it is a DNS name): the URL's host.
    public var serverName: String
    /// A PEM file of the CA certificates trusted *instead of* the system's (a private CA such
    /// as Memorystore's), unless ``trustsSystemRoots``. Verification is never turned off.
    public var caFile: String?
    /// Whether the system's roots are trusted as well as ``caFile`` (`ca=system`). Without a
    /// ``caFile`` the system's roots are always trusted (there would be nothing else).
    public var trustsSystemRoots: Bool
    /// A PEM certificate (chain) presented to a server that requires client certificates
    /// (mutual TLS); set together with ``keyFile``.
    public var certificateFile: String?
    /// The PEM private key of ``certificateFile``.
    public var keyFile: String?

    /// Creates TLS settings for `serverName`.
    public init(
      serverName: String, caFile: String? = nil, trustsSystemRoots: Bool = false,
      certificateFile: String? = nil, keyFile: String? = nil
    ) {
      self.serverName = serverName
      self.caFile = caFile
      self.trustsSystemRoots = trustsSystemRoots
      self.certificateFile = certificateFile
      self.keyFile = keyFile
    }
  }

  /// `SOCIALLOGIN_REDIS_CA_FILE`: the `ca=` of a `rediss://` URL that has none: a CA file
  /// trusted instead of the system's roots, `system`, or both comma-separated
  /// (`/etc/ssl/redis-ca.pem,system`).
  public static let caFileEnvironmentVariable = "SOCIALLOGIN_REDIS_CA_FILE"
  /// `SOCIALLOGIN_REDIS_CERT_FILE`: the client certificate of a `rediss://` URL without `cert=`.
  public static let certificateFileEnvironmentVariable = "SOCIALLOGIN_REDIS_CERT_FILE"
  /// `SOCIALLOGIN_REDIS_KEY_FILE`: the client key of a `rediss://` URL without `key=`.
  public static let keyFileEnvironmentVariable = "SOCIALLOGIN_REDIS_KEY_FILE"

  /// The TLS settings of a `rediss://` URL: its `ca=`, `cert=` and `key=` query items, else
  /// the environment's variables. Only ever called for a `rediss://` URL, so the environment
  /// can choose the trusted roots or a client certificate but never turn TLS on or off.
  static func tls(
    host: String, query: [(name: String, value: String?)], environment: [String: String]
  ) throws(RedisError) -> TLS {
    func value(_ item: String, _ variable: String) -> String? {
      if let given = query.last(where: { $0.name == item })?.value, !given.isEmpty {
        return given
      }
      guard let fromEnvironment = environment[variable], !fromEnvironment.isEmpty else {
        return nil
      }
      return fromEnvironment
    }
    var authorities = query.filter { $0.name == "ca" }.compactMap(\.value).filter { !$0.isEmpty }
    if authorities.isEmpty, let fromEnvironment = environment[caFileEnvironmentVariable] {
      authorities = fromEnvironment.split(separator: ",").map(String.init)
    }
    let files = authorities.filter { $0 != "system" }
    guard files.count <= 1 else {
      throw RedisError(
        .configuration,
        "Only one CA file can be given (ca=PATH, with ca=system to add the system's roots); "
          + "concatenate the PEM files into one.")
    }
    let tls = TLS(
      serverName: host, caFile: files.first,
      trustsSystemRoots: authorities.contains("system"),
      certificateFile: value("cert", certificateFileEnvironmentVariable),
      keyFile: value("key", keyFileEnvironmentVariable))
    guard (tls.certificateFile == nil) == (tls.keyFile == nil) else {
      throw RedisError(
        .configuration,
        "Mutual TLS needs both a client certificate and its key (cert= and key=, or "
          + "\(certificateFileEnvironmentVariable) and \(keyFileEnvironmentVariable)).")
    }
    return tls
  }
}
