import SocialLogin

/// One OpenSSL `SSL_CTX` for a set of ``RedisConfiguration/TLS`` files: TLS 1.2 or later,
/// peer verification always on (`SSL_VERIFY_PEER`), the CA file alone as the trusted roots when
/// one is given (the system's trust store too only with ``RedisConfiguration/TLS/trustsSystemRoots``;
/// without a CA file, the system's), and the client certificate and key when given.
///
/// Made once per distinct set of files and kept for the process's life (loading the trust
/// store takes milliseconds; a connection only needs an `SSL` from it). OpenSSL allows
/// creating sessions from one configured context on many threads at once.
///
/// `@unchecked Sendable`: `pointer` is set in `init`, never changed, and only passed to
/// `SSL_new`, which is thread-safe on a context no longer being configured.
final class TLSContext: @unchecked Sendable {
  let library: OpenSSLLibrary
  let pointer: OpaquePointer
  /// Whether a client certificate is configured (for the message of a refused handshake).
  let hasClientCertificate: Bool

  /// The files a context is made from (the server name is per connection).
  private struct Files: Hashable, Sendable {
    var caFile: String?
    var systemRoots: Bool
    var certificateFile: String?
    var keyFile: String?
  }

  private static let cache = Locked([Files: TLSContext]())

  /// The context for `tls`'s files, made on first use.
  static func shared(for tls: RedisConfiguration.TLS) throws(RedisError) -> TLSContext {
    let files = Files(
      caFile: tls.caFile, systemRoots: tls.caFile == nil || tls.trustsSystemRoots,
      certificateFile: tls.certificateFile, keyFile: tls.keyFile)
    if let cached = cache.withLock({ $0[files] }) { return cached }
    let context = try TLSContext(files, library: OpenSSLLibrary.load())
    return cache.withLock { cache in
      if let raced = cache[files] { return raced }
      cache[files] = context
      return context
    }
  }

  private init(_ files: Files, library: OpenSSLLibrary) throws(RedisError) {
    self.library = library
    hasClientCertificate = files.certificateFile != nil
    library.errorClear()
    guard let method = library.clientMethod(), let pointer = library.contextNew(method) else {
      throw Self.failure(library, "OpenSSL could not create a TLS context")
    }
    self.pointer = pointer
    // On failure `deinit` frees the context (it runs for a fully initialized object).
    try configure(files)
  }

  private func configure(_ files: Files) throws(RedisError) {
    _ = library.contextControl(
      pointer, OpenSSLConstant.controlMode, OpenSSLConstant.partialWriteModes, nil)
    // Read ahead: records already read from the socket wait inside OpenSSL, which
    // `TLSSession.hasBufferedInput` (`SSL_has_pending`) reports so that they are drained.
    _ = library.contextControl(pointer, OpenSSLConstant.controlSetReadAhead, 1, nil)
    guard
      library.contextControl(
        pointer, OpenSSLConstant.controlSetMinimumVersion, OpenSSLConstant.tls12Version, nil) == 1
    else { throw Self.failure(library, "OpenSSL refused TLS 1.2 as the minimum version") }
    library.contextSetVerify(pointer, OpenSSLConstant.verifyPeer, nil)
    // A CA file is exclusive: `SSL_CTX_set_default_verify_paths` (the system's roots) only
    // when asked for, so a sentinel or cluster node naming another host with a publicly
    // trusted certificate is refused.
    if files.systemRoots {
      guard library.contextSetDefaultVerifyPaths(pointer) == 1 else {
        throw Self.failure(library, "OpenSSL could not load the system's trust store")
      }
    }
    if let caFile = files.caFile {
      guard library.contextLoadVerifyLocations(pointer, caFile, nil) == 1 else {
        throw Self.failure(
          library, "The CA file \(caFile) could not be loaded", kind: .configuration)
      }
    }
    if let certificate = files.certificateFile, let key = files.keyFile {
      guard library.contextUseCertificateChainFile(pointer, certificate) == 1 else {
        throw Self.failure(
          library, "The client certificate \(certificate) could not be loaded", kind: .configuration
        )
      }
      guard library.contextUsePrivateKeyFile(pointer, key, OpenSSLConstant.fileTypePEM) == 1 else {
        throw Self.failure(
          library, "The client key \(key) could not be loaded", kind: .configuration)
      }
      guard library.contextCheckPrivateKey(pointer) == 1 else {
        throw Self.failure(
          library, "The client key \(key) does not match \(certificate)", kind: .configuration)
      }
    }
  }

  /// An error (``RedisError/Kind/tlsHandshakeFailed`` unless said otherwise; a file that
  /// cannot be used is ``RedisError/Kind/configuration``) with OpenSSL's reason appended.
  private static func failure(
    _ library: OpenSSLLibrary, _ message: String, kind: RedisError.Kind = .tlsHandshakeFailed
  ) -> RedisError {
    let reason = library.takeError().map { " (\($0.text))" } ?? ""
    library.errorClear()
    return RedisError(kind, message + reason + ".")
  }

  deinit {
    library.contextFree(pointer)
  }
}
