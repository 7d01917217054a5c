import Foundation
import SocialLoginTesting
import Testing

/// A CA and certificates made with the `openssl` command once per test process, in a
/// temporary directory: the server's (SAN `IP:127.0.0.1`, `DNS:localhost`), one for another
/// host, one that expired yesterday, a client certificate for mutual TLS, and a second CA
/// that signed none of them. EC P-256 keys (fast to make).
struct TLSTestCertificates: Sendable {
  struct Pair: Sendable {
    let certificate: String
    let key: String
  }

  let directory: URL
  let ca: String
  let otherCA: String
  let server: Pair
  let wrongHost: Pair
  /// For `DNS:localhost` only, not `127.0.0.1` (a cluster's nodes announced by address).
  let localhostOnly: Pair
  let expired: Pair
  let client: Pair
  /// A third CA, standing in for the system's roots (`SSL_CERT_FILE`), and a server
  /// certificate (SAN `IP:127.0.0.1`, `DNS:localhost`) it signed.
  let systemCA: String
  let systemSigned: Pair
  /// Signed by the CA, with the subject `CN=localhost` and no subject alternative name: a
  /// client that fell back to the common name would accept it for `localhost`.
  let commonNameOnly: Pair

  /// Made on first use; the same failure for every test when `openssl` is missing.
  static let shared: Result<TLSTestCertificates, RedisTestError> = {
    do {
      return .success(try make())
    } catch let error as RedisTestError {
      return .failure(error)
    } catch {
      return .failure(RedisTestError("making test certificates failed: \(error)"))
    }
  }()

  static func get() throws -> TLSTestCertificates { try shared.get() }

  private static func make() throws -> TLSTestCertificates {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sociallogin-tls-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for name in ["ca", "other-ca", "system-ca"] {
      try openssl(
        ["req", "-x509"] + curve + [
          "-keyout", path("\(name).key"), "-out", path("\(name).pem"), "-days", "2",
          "-subj", "/CN=SocialLogin test \(name)",
        ])
    }
    /// A key and a certificate signed by the CA, valid for `days` (negative: expired).
    func issue(
      _ name: String, subjectAltName: String?, days: Int, by ca: String = "ca",
      commonName: String? = nil
    ) throws -> Pair {
      try openssl(
        ["req", "-new"] + curve + [
          "-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj",
          "/CN=\(commonName ?? name)",
        ])
      var arguments = [
        "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(ca).pem"), "-CAkey",
        path("\(ca).key"), "-CAcreateserial", "-out", path("\(name).pem"), "-days", String(days),
      ]
      if let subjectAltName {
        try "subjectAltName=\(subjectAltName)\n".write(
          toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
        arguments += ["-extfile", path("\(name).ext")]
      }
      try openssl(arguments)
      return Pair(certificate: path("\(name).pem"), key: path("\(name).key"))
    }
    let loopback = "IP:127.0.0.1,DNS:localhost"
    return TLSTestCertificates(
      directory: directory, ca: path("ca.pem"), otherCA: path("other-ca.pem"),
      server: try issue("server", subjectAltName: loopback, days: 2),
      wrongHost: try issue("wrong-host", subjectAltName: "DNS:redis.elsewhere.test", days: 2),
      localhostOnly: try issue("localhost-only", subjectAltName: "DNS:localhost", days: 2),
      // OpenSSL 3.0's `x509 -req` takes a negative -days: notAfter a day before notBefore.
      expired: try issue("expired", subjectAltName: loopback, days: -1),
      client: try issue("client", subjectAltName: nil, days: 2),
      systemCA: path("system-ca.pem"),
      systemSigned: try issue(
        "system-signed", subjectAltName: loopback, days: 2, by: "system-ca"),
      commonNameOnly: try issue(
        "common-name-only", subjectAltName: nil, days: 2, commonName: "localhost"))
  }

  private static func openssl(_ arguments: [String]) throws {
    guard
      let executable = ["/usr/bin/openssl", "/usr/local/bin/openssl"]
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { throw RedisTestError("the openssl command is not installed (apt-get install openssl)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let output = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw RedisTestError(
        "openssl \(arguments.first ?? "") failed: \(String(decoding: output, as: UTF8.self))")
    }
  }
}

/// A redis-server with a TLS port beside its plaintext one (which the readiness check and
/// `CONFIG SET` use): `--tls-port`, the certificate `pair`, the test CA for client
/// certificates, and `--tls-auth-clients yes` or `no`.
struct TLSRedisServer: Sendable {
  let server: RedisFixture
  let tlsPort: UInt16
  let certificates: TLSTestCertificates

  /// `rediss://127.0.0.1:TLSPORT/DB` with the test CA (`?ca=`) unless `ca` says otherwise.
  func url(host: String = "127.0.0.1", ca: String?? = .none, extra: String = "") -> String {
    let database = server.database == 0 ? "" : "/\(server.database)"
    let caFile: String? = ca ?? certificates.ca
    var query = caFile.map { ["ca=\($0)"] } ?? []
    if !extra.isEmpty { query.append(extra) }
    return "rediss://\(host):\(tlsPort)\(database)"
      + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
  }

  /// Whether this machine's redis-server was built with TLS (Debian's is: it links libssl).
  static let serverHasTLS: Bool = {
    guard let executable = RedisTestServer.executable(),
      let binary = FileManager.default.contents(atPath: executable)
    else { return false }
    return binary.range(of: Data("libssl.so".utf8)) != nil
  }()

  /// The TLS suites run when redis-server has TLS, or CI requires it (and then fails).
  static var shouldRun: Bool { serverHasTLS || RedisTestServer.isRequired() }

  static func arguments(
    port: UInt16, pair: TLSTestCertificates.Pair, ca: String, authClients: Bool
  ) -> [String] {
    [
      "--tls-port", String(port), "--tls-cert-file", pair.certificate, "--tls-key-file",
      pair.key, "--tls-ca-cert-file", ca, "--tls-auth-clients", authClients ? "yes" : "no",
    ]
  }

  /// A server of the test's own presenting `pair` (the valid server certificate by default).
  static func withOwn<T>(
    pair: KeyPath<TLSTestCertificates, TLSTestCertificates.Pair> = \.server,
    authClients: Bool = false, _ body: (TLSRedisServer) async throws -> T
  ) async throws -> T {
    try requireTLS()
    let certificates = try TLSTestCertificates.get()
    let port = try RedisTestServer.freePort()
    return try await RedisFixture.withOwn(
      arguments: arguments(
        port: port, pair: certificates[keyPath: pair], ca: certificates.ca,
        authClients: authClients)
    ) { server in
      try await body(TLSRedisServer(server: server, tlsPort: port, certificates: certificates))
    }
  }

  private static func requireTLS() throws {
    guard serverHasTLS else {
      throw RedisTestError("redis-server was built without TLS (Debian's redis-server has it)")
    }
  }
}

/// The trait of every suite that needs a TLS redis-server.
let redisTLSAvailable = ConditionTrait.enabled(
  if: TLSRedisServer.shouldRun,
  "redis-server is not installed or was built without TLS (with CI set this fails)")
