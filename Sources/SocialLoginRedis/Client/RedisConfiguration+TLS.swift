extension RedisConfiguration {
  /// How a `rediss://` connection is secured: the certificate is always verified against the
  /// system's trust store and the host name, and the handshake completes before anything else
  /// is sent. There is no option to skip verification.
  ///
  /// ```swift
  /// // rediss://host:6380/0?ca=/etc/ssl/redis-ca.pem&cert=/run/client.pem&key=/run/client.key
  /// let configuration = try RedisConfiguration(url: "rediss://cache.example.net:6380")
  /// ```
  public struct TLS: Sendable, Hashable {
    /// The name checked against the server's certificate (a DNS name or an IP address) and
    /// sent as SNI (when it is a DNS name): the URL's host.
    public var serverName: String
    /// A PEM file of CA certificates trusted *in addition to* the system's (a private CA such
    /// as Memorystore's). It never removes a root, and verification is never turned off.
    public var caFile: String?
    /// A PEM certificate (chain) presented to a server that requires client certificates
    /// (mutual TLS); set together with ``keyFile``.
    public var certificateFile: String?
    /// The PEM private key of ``certificateFile``.
    public var keyFile: String?

    /// Creates TLS settings for `serverName`.
    public init(
      serverName: String, caFile: String? = nil, certificateFile: String? = nil,
      keyFile: String? = nil
    ) {
      self.serverName = serverName
      self.caFile = caFile
      self.certificateFile = certificateFile
      self.keyFile = keyFile
    }
  }

  /// `SOCIALLOGIN_REDIS_CA_FILE`: a CA file added to the trust store of a `rediss://` URL that
  /// has no `ca=`.
  public static let caFileEnvironmentVariable = "SOCIALLOGIN_REDIS_CA_FILE"
  /// `SOCIALLOGIN_REDIS_CERT_FILE`: the client certificate of a `rediss://` URL without `cert=`.
  public static let certificateFileEnvironmentVariable = "SOCIALLOGIN_REDIS_CERT_FILE"
  /// `SOCIALLOGIN_REDIS_KEY_FILE`: the client key of a `rediss://` URL without `key=`.
  public static let keyFileEnvironmentVariable = "SOCIALLOGIN_REDIS_KEY_FILE"

  /// The TLS settings of a `rediss://` URL: its `ca=`, `cert=` and `key=` query items, else
  /// the environment's variables. Only ever called for a `rediss://` URL, so the environment
  /// can add a trusted root or a client certificate but never turn TLS on or off.
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
    let tls = TLS(
      serverName: host, caFile: value("ca", caFileEnvironmentVariable),
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
