import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One TLS connection (an OpenSSL `SSL` over a non-blocking socket): the handshake with its
/// certificate and host-name checks, then the ``RedisStream`` reads and writes.
///
/// `@unchecked Sendable`: an `SSL` must not be used by two threads at once, and a
/// ``RedisConnection`` writes from the caller's task while its thread reads, so every call on
/// `ssl` holds `lock` (each is non-blocking, so the lock is held for microseconds). `ssl` is
/// freed in ``close()``, which the connection calls once no thread uses the stream.
final class TLSSession: RedisStream, @unchecked Sendable {
  let fd: Int32
  private let library: OpenSSLLibrary
  private let ssl: OpaquePointer
  /// Kept alive as long as the session that was made from it.
  private let context: TLSContext
  private let lock = Locked(())

  private init(fd: Int32, ssl: OpaquePointer, context: TLSContext) {
    self.fd = fd
    self.ssl = ssl
    self.context = context
    library = context.library
  }

  /// Completes a TLS handshake over the connected socket `fd` before `deadline`, verifying
  /// the certificate chain and that it names `serverName`. On failure the socket is closed.
  ///
  /// - Throws: ``RedisError`` of the TLS kinds (untrusted, host-name mismatch, expired,
  ///   client certificate refused, handshake failed) or ``RedisError/Kind/timedOut``.
  static func connect(
    fd: Int32, context: TLSContext, serverName: String, endpoint: String,
    deadline: ContinuousClock.Instant
  ) throws(RedisError) -> TLSSession {
    let library = context.library
    library.errorClear()
    guard let ssl = library.sessionNew(context.pointer) else {
      _ = closeDescriptor(fd)
      throw RedisError(.tlsHandshakeFailed, "OpenSSL could not create a TLS session.")
    }
    let session = TLSSession(fd: fd, ssl: ssl, context: context)
    do throws(RedisError) {
      try session.prepare(serverName: serverName)
      try session.handshake(serverName: serverName, endpoint: endpoint, deadline: deadline)
      return session
    } catch {
      library.errorClear()
      session.close()
      throw error
    }
  }

  /// Binds the socket, the name to verify and (for a DNS name) SNI.
  private func prepare(serverName: String) throws(RedisError) {
    guard library.sessionSetFD(ssl, fd) == 1 else {
      throw RedisError(.tlsHandshakeFailed, "OpenSSL could not use the socket.")
    }
    let name =
      serverName.hasPrefix("[") && serverName.hasSuffix("]")
      ? String(serverName.dropFirst().dropLast()) : serverName
    // RFC 6125 matching only: no partial wildcards, never the subject's common name.
    library.parametersSetHostFlags(
      library.sessionGetParameters(ssl), OpenSSLConstant.hostCheckFlags)
    if Self.isIPAddress(name) {
      // An address is checked against the certificate's IP SANs; SNI never carries one
      // (RFC 6066 §3).
      guard library.parametersSetIPAddress(library.sessionGetParameters(ssl), name) == 1 else {
        throw RedisError(.configuration, "\(name) is not an IP address OpenSSL accepts.")
      }
    } else {
      // SSL_set_tlsext_host_name(ssl, name) is a macro for this SSL_ctrl (it copies the name).
      let sni = name.withCString { pointer in
        library.sessionControl(
          ssl, OpenSSLConstant.controlSetHostName, OpenSSLConstant.nameTypeHostName,
          UnsafeMutableRawPointer(mutating: pointer))
      }
      guard library.sessionSetHost(ssl, name) == 1, sni == 1 else {
        throw RedisError(.configuration, "\"\(name)\" cannot be used as a TLS server name.")
      }
    }
  }

  private func handshake(
    serverName: String, endpoint: String, deadline: ContinuousClock.Instant
  ) throws(RedisError) {
    while true {
      let (result, code) = call { library.sessionConnect(ssl) }
      if result == 1 { return }
      let events: Int16
      switch code {
      case OpenSSLConstant.errorWantRead: events = Int16(POLLIN)
      case OpenSSLConstant.errorWantWrite: events = Int16(POLLOUT)
      default: throw handshakeError(code, serverName: serverName, endpoint: endpoint)
      }
      guard try RedisSocket.wait(fd, events: events, deadline: deadline) else {
        throw RedisError(
          .timedOut,
          "The TLS handshake with \(endpoint) timed out (a plaintext Redis port never answers "
            + "a TLS hello; use redis:// for it).")
      }
    }
  }

  /// The typed error of a failed handshake: the certificate check that failed, or what
  /// OpenSSL reports.
  private func handshakeError(_ code: Int32, serverName: String, endpoint: String) -> RedisError {
    let verification = library.sessionVerifyResult(ssl)
    let reported = library.takeError()
    library.errorClear()
    if verification != 0 {
      let text = library.verifyErrorText(verification)
      switch verification {
      case OpenSSLConstant.certificateExpired, OpenSSLConstant.certificateNotYetValid:
        return RedisError(
          .tlsCertificateExpired,
          "The TLS certificate of \(endpoint) is outside its validity period (\(text)).")
      case OpenSSLConstant.hostNameMismatch, OpenSSLConstant.ipAddressMismatch:
        return RedisError(
          .tlsHostNameMismatch, "The TLS certificate of \(endpoint) is not valid for \(serverName)."
        )
      case let code where OpenSSLConstant.untrustedChain.contains(code):
        return RedisError(
          .tlsUntrustedCertificate,
          "The TLS certificate of \(endpoint) is not trusted (\(text)); add its CA with "
            + "?ca=PATH or \(RedisConfiguration.caFileEnvironmentVariable).")
      default:
        return RedisError(
          .tlsHandshakeFailed, "The TLS certificate of \(endpoint) was refused (\(text)).")
      }
    }
    if let reported, let refused = clientCertificateError(reported.reason, endpoint: endpoint) {
      return refused
    }
    if let reported, OpenSSLConstant.notTLSReasons.contains(reported.reason) {
      return RedisError(
        .tlsHandshakeFailed,
        "\(endpoint) did not answer in TLS (is it a plaintext port? use redis:// for that).")
    }
    if code == OpenSSLConstant.errorSyscall || code == OpenSSLConstant.errorZeroReturn {
      return RedisError(
        .tlsHandshakeFailed, "\(endpoint) closed the connection during the TLS handshake.")
    }
    return RedisError(
      .tlsHandshakeFailed,
      "The TLS handshake with \(endpoint) failed"
        + (reported.map { " (\($0.text))." } ?? "."))
  }

  /// ``RedisError/Kind/tlsClientCertificateRefused`` when `reason` is an alert by which the
  /// server refused our certificate (with TLS 1.3 it arrives after the client's handshake has
  /// finished, on the first read).
  private func clientCertificateError(_ reason: Int32, endpoint: String) -> RedisError? {
    guard OpenSSLConstant.clientCertificateAlerts.contains(reason) else { return nil }
    let given = context.hasClientCertificate
    return RedisError(
      .tlsClientCertificateRefused,
      given
        ? "\(endpoint) refused the client certificate."
        : "\(endpoint) requires a client certificate (mutual TLS): set cert= and key= or "
          + "\(RedisConfiguration.certificateFileEnvironmentVariable) and "
          + "\(RedisConfiguration.keyFileEnvironmentVariable).")
  }

  // MARK: - RedisStream

  func write(_ bytes: UnsafeRawBufferPointer) throws(RedisError) -> StreamStep {
    let count = Int32(clamping: bytes.count)
    let (result, code) = call { library.sessionWrite(ssl, bytes.baseAddress, count) }
    if result > 0 { return .transferred(Int(result)) }
    do throws(RedisError) {
      return try blocked(code, action: "sending")
    } catch {
      throw reasonForFailedWrite() ?? error
    }
  }

  /// Why a write failed when the server had already ended the connection: with TLS 1.3 a
  /// server refuses a client certificate only after the client's handshake finished, so the
  /// first request meets a reset socket while the server's alert waits unread before it.
  private func reasonForFailedWrite() -> RedisError? {
    var scratch = [UInt8](repeating: 0, count: 256)
    let (result, code) = call { library.sessionRead(ssl, &scratch, Int32(scratch.count)) }
    guard result <= 0, code == OpenSSLConstant.errorSSL, let reported = library.takeError()
    else { return nil }
    library.errorClear()
    return clientCertificateError(reported.reason, endpoint: "Redis")
  }

  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(RedisError) -> StreamStep {
    let count = Int32(clamping: capacity)
    let (result, code) = call { library.sessionRead(ssl, buffer, count) }
    if result > 0 { return .transferred(Int(result)) }
    return try blocked(code, action: "receiving")
  }

  var hasBufferedInput: Bool {
    // SSL_has_pending, not SSL_pending: with read ahead, whole records not yet decrypted count.
    lock.withLock { _ in library.sessionHasPending(ssl) == 1 }
  }

  /// What to wait for after a read or write that did not go through, or the error that ended
  /// the stream.
  private func blocked(_ code: Int32, action: String) throws(RedisError) -> StreamStep {
    switch code {
    case OpenSSLConstant.errorWantRead: return .blocked(events: Int16(POLLIN))
    case OpenSSLConstant.errorWantWrite: return .blocked(events: Int16(POLLOUT))
    case OpenSSLConstant.errorZeroReturn:
      throw RedisError(.connectionLost, "Redis closed the TLS connection.")
    default:
      let reported = library.takeError()
      library.errorClear()
      if let reported, let refused = clientCertificateError(reported.reason, endpoint: "Redis") {
        throw refused
      }
      throw RedisError(
        .connectionLost,
        "The TLS connection to Redis broke while \(action)"
          + (reported.map { " (\($0.text))." } ?? "."))
    }
  }

  /// Runs one `SSL_*` call under the lock, with a clear error queue before and SIGPIPE
  /// blocked (OpenSSL writes with `write(2)`, which raises SIGPIPE on a connection the
  /// server closed; it must fail with `EPIPE` instead of ending the process), and returns its
  /// result with `SSL_get_error` of it.
  private func call(_ body: () -> Int32) -> (result: Int32, error: Int32) {
    lock.withLock { _ in
      library.errorClear()
      return SignalGuard.withoutSIGPIPE(
        {
          let result = body()
          return (result, result > 0 ? 0 : library.sessionGetError(ssl, result))
        },
        failed: {
          $0.error == OpenSSLConstant.errorSyscall || $0.error == OpenSSLConstant.errorSSL
        })
    }
  }

  /// Sends `close_notify` if the socket takes it at once, frees the session and closes the
  /// socket.
  func close() {
    lock.withLock { _ in
      _ = SignalGuard.withoutSIGPIPE({ library.sessionShutdown(ssl) })
      library.errorClear()
      library.sessionFree(ssl)
    }
    _ = closeDescriptor(fd)
  }

  /// Whether `name` is an IPv4 or IPv6 address literal.
  static func isIPAddress(_ name: String) -> Bool {
    var address = in6_addr()
    return inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1
  }
}
