#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's OpenSSL 3 (`libssl.so.3`, `libcrypto.so.3`), loaded at run time with `dlopen`
/// so that the package builds with nothing but the toolchain and has no package dependency.
///
/// On Linux the toolchain's FoundationNetworking already maps the same libraries into the
/// process (through libcurl), so loading them costs nothing more. Each function is looked up
/// once with `dlsym` and called through a `@convention(c)` function type matching its
/// prototype in OpenSSL 3's `ssl.h`, `err.h` and `x509_vfy.h`. A missing library or symbol is a
/// ``RedisError/Kind/tlsUnavailable`` error naming it; nothing falls back to plaintext.
///
/// `@unchecked Sendable`: every stored property is a library handle or a function pointer set
/// once in `init` and never changed; OpenSSL 3's functions are safe to call from any thread
/// (each `SSL` object is used by one thread at a time, see ``TLSSession``).
final class OpenSSLLibrary: @unchecked Sendable {
  typealias MethodFunction = @convention(c) () -> OpaquePointer?
  typealias ContextNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
  typealias ContextFree = @convention(c) (OpaquePointer?) -> Void
  typealias ContextCall = @convention(c) (OpaquePointer?) -> Int32
  typealias ContextLoadLocations =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
  typealias ContextFile = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
  typealias ContextTypedFile =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
  typealias ContextSetVerify = @convention(c) (OpaquePointer?, Int32, OpaquePointer?) -> Void
  typealias Control =
    @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
  typealias SessionSetFD = @convention(c) (OpaquePointer?, Int32) -> Int32
  typealias SessionSetHost = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
  typealias SessionIO = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Int32
  typealias SessionWrite = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> Int32
  typealias SessionGetError = @convention(c) (OpaquePointer?, Int32) -> Int32
  typealias SessionVerifyResult = @convention(c) (OpaquePointer?) -> Int
  typealias SessionGetParam = @convention(c) (OpaquePointer?) -> OpaquePointer?
  typealias ParamSetIP = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
  typealias ParamSetFlags = @convention(c) (OpaquePointer?, UInt32) -> Void
  typealias VerifyErrorString = @convention(c) (Int) -> UnsafePointer<CChar>?
  typealias ErrorGet = @convention(c) () -> UInt
  typealias ErrorClear = @convention(c) () -> Void
  typealias ErrorString = @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void

  let clientMethod: MethodFunction
  let contextNew: ContextNew
  let contextFree: ContextFree
  let contextSetDefaultVerifyPaths: ContextCall
  let contextLoadVerifyLocations: ContextLoadLocations
  let contextUseCertificateChainFile: ContextFile
  let contextUsePrivateKeyFile: ContextTypedFile
  let contextCheckPrivateKey: ContextCall
  let contextSetVerify: ContextSetVerify
  let contextControl: Control
  let sessionNew: ContextNew
  let sessionFree: ContextFree
  let sessionSetFD: SessionSetFD
  let sessionSetHost: SessionSetHost
  let sessionControl: Control
  let sessionGetParameters: SessionGetParam
  let parametersSetIPAddress: ParamSetIP
  let parametersSetHostFlags: ParamSetFlags
  let sessionConnect: ContextCall
  let sessionRead: SessionIO
  let sessionWrite: SessionWrite
  let sessionHasPending: ContextCall
  let sessionGetError: SessionGetError
  let sessionShutdown: ContextCall
  let sessionVerifyResult: SessionVerifyResult
  let verifyErrorString: VerifyErrorString
  let errorGet: ErrorGet
  let errorClear: ErrorClear
  let errorString: ErrorString

  /// The library names tried, in order: OpenSSL 3's sonames (the ABI these prototypes match).
  static let sslLibrary = "libssl.so.3"
  static let cryptoLibrary = "libcrypto.so.3"

  /// The process's library, loaded on first use; the same failure every time when it cannot be.
  static let shared: Result<OpenSSLLibrary, RedisError> = {
    do throws(RedisError) {
      return .success(try OpenSSLLibrary())
    } catch {
      return .failure(error)
    }
  }()

  /// The loaded library, or the typed error saying why TLS is unavailable.
  static func load() throws(RedisError) -> OpenSSLLibrary {
    try shared.get()
  }

  private init() throws(RedisError) {
    #if os(Linux)
      let ssl = try Self.open(Self.sslLibrary)
      let crypto = try Self.open(Self.cryptoLibrary)
      clientMethod = try Self.symbol(ssl, "TLS_client_method")
      contextNew = try Self.symbol(ssl, "SSL_CTX_new")
      contextFree = try Self.symbol(ssl, "SSL_CTX_free")
      contextSetDefaultVerifyPaths = try Self.symbol(ssl, "SSL_CTX_set_default_verify_paths")
      contextLoadVerifyLocations = try Self.symbol(ssl, "SSL_CTX_load_verify_locations")
      contextUseCertificateChainFile = try Self.symbol(ssl, "SSL_CTX_use_certificate_chain_file")
      contextUsePrivateKeyFile = try Self.symbol(ssl, "SSL_CTX_use_PrivateKey_file")
      contextCheckPrivateKey = try Self.symbol(ssl, "SSL_CTX_check_private_key")
      contextSetVerify = try Self.symbol(ssl, "SSL_CTX_set_verify")
      contextControl = try Self.symbol(ssl, "SSL_CTX_ctrl")
      sessionNew = try Self.symbol(ssl, "SSL_new")
      sessionFree = try Self.symbol(ssl, "SSL_free")
      sessionSetFD = try Self.symbol(ssl, "SSL_set_fd")
      sessionSetHost = try Self.symbol(ssl, "SSL_set1_host")
      sessionControl = try Self.symbol(ssl, "SSL_ctrl")
      sessionGetParameters = try Self.symbol(ssl, "SSL_get0_param")
      parametersSetIPAddress = try Self.symbol(crypto, "X509_VERIFY_PARAM_set1_ip_asc")
      parametersSetHostFlags = try Self.symbol(crypto, "X509_VERIFY_PARAM_set_hostflags")
      sessionConnect = try Self.symbol(ssl, "SSL_connect")
      sessionRead = try Self.symbol(ssl, "SSL_read")
      sessionWrite = try Self.symbol(ssl, "SSL_write")
      sessionHasPending = try Self.symbol(ssl, "SSL_has_pending")
      sessionGetError = try Self.symbol(ssl, "SSL_get_error")
      sessionShutdown = try Self.symbol(ssl, "SSL_shutdown")
      sessionVerifyResult = try Self.symbol(ssl, "SSL_get_verify_result")
      verifyErrorString = try Self.symbol(crypto, "X509_verify_cert_error_string")
      errorGet = try Self.symbol(crypto, "ERR_get_error")
      errorClear = try Self.symbol(crypto, "ERR_clear_error")
      errorString = try Self.symbol(crypto, "ERR_error_string_n")
    #else
      throw RedisError(
        .tlsUnavailable,
        "rediss:// (TLS) needs Linux's OpenSSL 3 (libssl.so.3) for now; on this platform run a "
          + "TLS sidecar such as stunnel on loopback and use redis://127.0.0.1:<port>.")
    #endif
  }

  #if os(Linux)
    private static func open(_ name: String) throws(RedisError) -> UnsafeMutableRawPointer {
      // RTLD_NOW: a library missing a symbol fails here, not at the first TLS call.
      guard let handle = dlopen(name, RTLD_NOW) else {
        throw RedisError(
          .tlsUnavailable,
          "rediss:// (TLS) needs the system's OpenSSL 3, and \(name) could not be loaded "
            + "(install libssl3, e.g. apt-get install libssl3).")
      }
      return handle
    }

    private static func symbol<Function>(_ library: UnsafeMutableRawPointer, _ name: String)
      throws(RedisError) -> Function
    {
      guard let address = dlsym(library, name) else {
        throw RedisError(
          .tlsUnavailable,
          "rediss:// (TLS) needs OpenSSL 3's \(name), which the loaded library does not have.")
      }
      return unsafeBitCast(address, to: Function.self)
    }
  #endif

  /// The oldest error on this thread's OpenSSL error queue (removing it), as its reason code
  /// (`ERR_GET_REASON`) and text, or `nil` when the queue is empty.
  func takeError() -> (reason: Int32, text: String)? {
    let code = errorGet()
    guard code != 0 else { return nil }
    var text = [CChar](repeating: 0, count: 256)
    errorString(code, &text, text.count)
    // OpenSSL 3's err.h: a system error has ERR_SYSTEM_FLAG (INT_MAX + 1) set; otherwise the
    // reason is the low 23 bits (ERR_REASON_MASK 0x7FFFFF).
    let isSystem = code & (UInt(Int32.max) + 1) != 0
    let reason = isSystem ? 0 : Int32(truncatingIfNeeded: code & 0x7F_FFFF)
    let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return (reason, String(decoding: bytes, as: UTF8.self))
  }

  /// The text of an `X509_V_ERR_*` code.
  func verifyErrorText(_ code: Int) -> String {
    verifyErrorString(code).map { String(cString: $0) } ?? "verification error \(code)"
  }
}

/// OpenSSL 3 constants the package uses, checked against the 3.0 headers (`ssl.h`, `tls1.h`,
/// `x509.h`, `x509_vfy.h`, `sslerr.h`, `err.h`).
enum OpenSSLConstant {
  /// `SSL_VERIFY_PEER` (ssl.h).
  static let verifyPeer: Int32 = 0x01
  /// `SSL_FILETYPE_PEM` = `X509_FILETYPE_PEM` (x509.h).
  static let fileTypePEM: Int32 = 1
  /// `SSL_CTRL_MODE` (ssl.h), for `SSL_CTX_set_mode`.
  static let controlMode: Int32 = 33
  /// `SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER` (ssl.h): a
  /// non-blocking `SSL_write` reports what it wrote, like `send(2)`.
  static let partialWriteModes = 0x1 | 0x2
  /// `SSL_CTRL_SET_READ_AHEAD` (ssl.h), for `SSL_CTX_set_read_ahead`: one `recv(2)` takes
  /// what the socket has instead of a record header and then its body.
  static let controlSetReadAhead: Int32 = 41
  /// `SSL_CTRL_SET_MIN_PROTO_VERSION` (ssl.h) and `TLS1_2_VERSION` (prov_ssl.h).
  static let controlSetMinimumVersion: Int32 = 123
  static let tls12Version = 0x0303
  /// `SSL_CTRL_SET_TLSEXT_HOSTNAME` (ssl.h) with `TLSEXT_NAMETYPE_host_name` (tls1.h): the
  /// `SSL_set_tlsext_host_name` macro.
  static let controlSetHostName: Int32 = 55
  static let nameTypeHostName = 0

  /// `SSL_ERROR_*` (ssl.h).
  static let errorSSL: Int32 = 1
  static let errorWantRead: Int32 = 2
  static let errorWantWrite: Int32 = 3
  static let errorSyscall: Int32 = 5
  static let errorZeroReturn: Int32 = 6

  /// `X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS` (0x4) | `X509_CHECK_FLAG_NEVER_CHECK_SUBJECT`
  /// (0x20) (x509v3.h), for `X509_VERIFY_PARAM_set_hostflags`: a wildcard matches only as a
  /// whole leftmost label (`*.example.com`, never `a*.example.com`), and the subject's common
  /// name is never taken for a host name, even in a certificate without DNS names.
  static let hostCheckFlags: UInt32 = 0x4 | 0x20

  /// `X509_V_ERR_*` (x509_vfy.h).
  static let certificateNotYetValid = 9
  static let certificateExpired = 10
  static let hostNameMismatch = 62
  static let ipAddressMismatch = 64
  /// Unable to get issuer (2), self-signed leaf (18), self-signed in chain (19), unable to get
  /// local issuer (20), unable to verify the first certificate (21), not trusted (27).
  static let untrustedChain: Set<Int> = [2, 18, 19, 20, 21, 27]

  /// `SSL_R_*` reasons (sslerr.h) of alerts by which a server refuses the client's certificate
  /// (`SSL_AD_REASON_OFFSET` 1000 + the alert): bad_certificate 1042, certificate_revoked
  /// 1044, certificate_expired 1045, certificate_unknown 1046, unknown_ca 1048,
  /// TLS 1.3 certificate_required 1116.
  static let clientCertificateAlerts: Set<Int32> = [1042, 1044, 1045, 1046, 1048, 1116]
  /// `SSL_R_WRONG_VERSION_NUMBER` 267 and `SSL_R_PACKET_LENGTH_TOO_LONG` 198: what came back is
  /// not TLS (a plaintext port).
  static let notTLSReasons: Set<Int32> = [198, 267]
}
