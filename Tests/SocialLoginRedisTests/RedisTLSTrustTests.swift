import Foundation
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#endif

/// Which roots a `rediss://` connection trusts and how it matches host names, against a real
/// redis-server with certificates made in the test.
///
/// The system's roots cannot be changed by a test, so a third CA stands in for them: OpenSSL's
/// `SSL_CTX_set_default_verify_paths` reads the `SSL_CERT_FILE` environment variable, which is
/// set (once, for this process) to that CA. No other test's outcome depends on the system's
/// real roots, and each context here is made from a CA file path of its own, so it is made
/// after the variable is set.
@Suite(redisTLSAvailable, .timeLimit(.minutes(3))) struct RedisTLSTrustTests {
  /// `SSL_CERT_FILE` pointing at the stand-in system CA.
  static let systemRoots: Result<String, RedisTestError> = {
    do {
      let certificates = try TLSTestCertificates.get()
      setenv("SSL_CERT_FILE", certificates.systemCA, 1)
      return .success(certificates.systemCA)
    } catch {
      return .failure(RedisTestError("no test certificates: \(error)"))
    }
  }()

  /// A copy of the test CA under a new path: a CA file no other test made a context from.
  func freshCA(_ certificates: TLSTestCertificates) throws -> String {
    let path = certificates.directory.appendingPathComponent("ca-\(UUID().uuidString).pem").path
    try FileManager.default.copyItem(atPath: certificates.ca, toPath: path)
    return path
  }

  func ping(_ url: String, environment: [String: String] = [:]) async -> Result<String, RedisError>
  {
    do {
      var configuration = try RedisConfiguration(url: url, environment: environment)
      configuration.connectAttempts = 1
      configuration.connectTimeout = .seconds(30)
      configuration.commandTimeout = .seconds(30)
      let client = RedisClient(configuration: configuration)
      defer { client.close() }
      return .success(try await client.send(["PING"]).string ?? "")
    } catch let error as RedisError {
      return .failure(error)
    } catch {
      return .failure(RedisError(.unexpectedReply, "\(error)"))
    }
  }

  @Test func aCAFileIsTheOnlyTrustedRootUnlessCASystemAddsTheSystemsBack() async throws {
    _ = try Self.systemRoots.get()
    try await TLSRedisServer.withOwn(pair: \.systemSigned) { server in
      // The server's CA is among the (stand-in) system roots, not in the CA file.
      let ca = try freshCA(server.certificates)
      let exclusive = await ping(server.url(ca: .some(ca)))
      guard case .failure(let error) = exclusive else {
        Issue.record("ca= trusted the system's roots too: \(exclusive)")
        return
      }
      #expect(error.kind == .tlsUntrustedCertificate, "\(error)")
      let withSystem = await ping(server.url(ca: .some(ca), extra: "ca=system"))
      #expect((try? withSystem.get()) == "PONG", "\(withSystem)")
      let fromEnvironment = await ping(
        server.url(ca: .some(nil)),
        environment: [
          RedisConfiguration.caFileEnvironmentVariable: try freshCA(server.certificates)
        ])
      guard case .failure(let environmentError) = fromEnvironment else {
        Issue.record("SOCIALLOGIN_REDIS_CA_FILE trusted the system's roots too")
        return
      }
      #expect(environmentError.kind == .tlsUntrustedCertificate, "\(environmentError)")
      let environmentWithSystem = await ping(
        server.url(ca: .some(nil)),
        environment: [
          RedisConfiguration.caFileEnvironmentVariable: try freshCA(server.certificates) + ",system"
        ])
      #expect((try? environmentWithSystem.get()) == "PONG", "\(environmentWithSystem)")
    }
    // The test CA's own server is trusted through the exclusive file.
    try await TLSRedisServer.withOwn { server in
      let result = await ping(server.url(ca: .some(try freshCA(server.certificates))))
      #expect((try? result.get()) == "PONG", "\(result)")
    }
  }

  @Test func aCertificateNamingTheHostOnlyInItsCommonNameIsAHostNameMismatch() async throws {
    try await TLSRedisServer.withOwn(pair: \.commonNameOnly) { server in
      let result = await ping(server.url(host: "localhost"))
      guard case .failure(let error) = result else {
        Issue.record("the subject's common name was taken for a host name: \(result)")
        return
      }
      #expect(error.kind == .tlsHostNameMismatch, "\(error)")
    }
  }
}
