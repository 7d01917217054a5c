/// What went wrong talking to Redis: a stable ``Kind`` to match on and a message that is safe
/// to log (it never contains a password, a token or a stored value).
///
/// The stores wrap it in an `AuthError` (``RedisError/Kind/authenticationFailed`` as
/// `.configuration`, everything else as `.storageFailed`, which sessions treat as transient)
/// and keep it as the `underlying` error.
public struct RedisError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure.
  public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kind's stable string.
    public let rawValue: String
    /// Creates a kind.
    public init(rawValue: String) { self.rawValue = rawValue }
    init(_ rawValue: String) { self.rawValue = rawValue }
    /// The kind's string.
    public var description: String { rawValue }

    /// The URL or options are invalid (bad scheme, port, database number...).
    public static let configuration = Kind("configuration")
    /// No connection could be made (refused, unreachable, name not resolved).
    public static let connectionFailed = Kind("connection_failed")
    /// The connection broke while a command was in flight; its outcome is unknown.
    public static let connectionLost = Kind("connection_lost")
    /// Connecting or a command took longer than its timeout.
    public static let timedOut = Kind("timed_out")
    /// `AUTH` was refused (`WRONGPASS`, `NOAUTH`, ACL user disabled) or required and missing.
    public static let authenticationFailed = Kind("authentication_failed")
    /// The server's reply is not valid RESP.
    public static let protocolViolation = Kind("protocol_violation")
    /// The server's reply is larger than ``RESPLimits`` allow.
    public static let replyTooLarge = Kind("reply_too_large")
    /// The server refused the command (`-ERR ...`); ``RedisError/serverMessage`` says why.
    public static let server = Kind("server")
    /// The reply has an unexpected shape for the command that was sent.
    public static let unexpectedReply = Kind("unexpected_reply")
    /// The client was closed.
    public static let closed = Kind("closed")
    /// A sentinel, a cluster node or a redirect named a host outside
    /// ``RedisConfiguration/topologyHosts`` (the URL's `tls-host=`, or the pattern derived from
    /// the URL's host); the message names it. Nothing was sent to that host: a peer is
    /// untrusted, and following it would hand it the password and the sessions.
    public static let topologyOutsidePattern = Kind("topology_outside_pattern")

    /// `rediss://` cannot be used here: OpenSSL 3 (`libssl.so.3`) or one of its functions is
    /// missing, or the platform is not Linux (the message names what is missing).
    public static let tlsUnavailable = Kind("tls_unavailable")
    /// The TLS handshake failed for another reason than the certificate checks below (the
    /// server does not speak TLS on that port, no common protocol version). A CA or client
    /// certificate file that cannot be read is ``configuration``.
    public static let tlsHandshakeFailed = Kind("tls_handshake_failed")
    /// The server's certificate does not chain to a trusted root (the system's, plus the CA
    /// file): a wrong or missing CA file, a self-signed certificate, or someone in between.
    public static let tlsUntrustedCertificate = Kind("tls_untrusted_certificate")
    /// The server's certificate is valid but not for the host name (or IP address) in the URL.
    public static let tlsHostNameMismatch = Kind("tls_host_name_mismatch")
    /// The server's certificate has expired (or is not valid yet).
    public static let tlsCertificateExpired = Kind("tls_certificate_expired")
    /// The server requires a client certificate (mutual TLS) and none was given, or it refused
    /// the one given.
    public static let tlsClientCertificateRefused = Kind("tls_client_certificate_refused")
  }

  /// The kind of failure.
  public var kind: Kind
  /// A readable message.
  public var message: String
  /// The server's error line (`WRONGPASS invalid username-password pair ...`), for
  /// ``Kind/server`` and ``Kind/authenticationFailed``.
  public var serverMessage: String?

  /// Creates an error.
  public init(_ kind: Kind, _ message: String, serverMessage: String? = nil) {
    self.kind = kind
    self.message = message
    self.serverMessage = serverMessage
  }

  /// The first word of the server's error (`NOSCRIPT`, `WRONGPASS`, `ERR`), if any.
  public var serverCode: String? {
    serverMessage?.split(separator: " ", maxSplits: 1).first.map(String.init)
  }

  /// `RedisError.kind: message`.
  public var description: String {
    "RedisError.\(kind.rawValue): \(message)"
      + (serverMessage.map { " (server: \($0.prefix(200)))" } ?? "")
  }
}
