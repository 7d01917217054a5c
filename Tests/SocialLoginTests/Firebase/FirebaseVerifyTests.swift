import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct FirebaseVerifyTests {
  static let certsPath = "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"

  /// A provider for the fixtures' project whose certificate endpoint serves `certificates`.
  func provider(
    certificates: [String: String] = ["key-1": FirebaseTokenFixtures.certificate1],
    emulator: Bool = false, headers: HTTPHeaderFields = ["Cache-Control": "public, max-age=600"]
  ) throws -> (FirebaseProvider, StubTransport, ManualClock) {
    let stub = StubTransport()
    let clock = ManualClock()
    let document = try JSONEncoder().encode(certificates)
    stub.on(
      "GET", Self.certsPath, repeating: true,
      reply: .json(String(decoding: document, as: UTF8.self), headers: headers))
    var configuration = FirebaseProvider.Configuration(
      apiKey: "k", projectID: FirebaseTokenFixtures.projectID,
      emulatorHost: emulator ? EmulatorHost(host: "127.0.0.1", port: 9099) : nil,
      environment: [:])
    configuration.acceptsUnsignedEmulatorTokens = emulator
    let provider = FirebaseProvider(configuration: configuration, transport: stub, clock: clock)
    return (provider, stub, clock)
  }

  func reason(_ token: String, provider: FirebaseProvider) async -> JOSEError.Reason? {
    do {
      _ = try await provider.verifyIDToken(token)
      return nil
    } catch let error as AuthError {
      #expect(error.code == .invalidToken)
      return error.joseError?.reason
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  @Test func goodTokenVerifiesWithItsFirebaseClaims() async throws {
    let (provider, stub, _) = try provider()
    let token = try await provider.verifyIDToken(FirebaseTokenFixtures.good)
    #expect(token.userID == "uid-123")
    #expect(token.signInProvider == "facebook.com")
    #expect(token.identities["facebook.com"] == ["fb-1"])
    #expect(token.email == "ada@example.com")
    #expect(token.expiresAt == Date(timeIntervalSince1970: 1_700_002_600))
    #expect(!token.isUnsigned)
    let verified = try await provider.verify(
      .idToken(Secret(FirebaseTokenFixtures.good), nonce: nil))
    #expect(verified.identity.subject == "uid-123")
    #expect(verified.audience == .proven(audience: "demo-project"))
    #expect(stub.requests.first?.url.host == "www.googleapis.com")
    // Cached by max-age: the second verification fetched nothing.
    #expect(stub.requestCount(path: Self.certsPath) == 1)
  }

  @Test func certificatesAreRefetchedAfterMaxAge() async throws {
    let (provider, stub, clock) = try provider()
    _ = try await provider.verifyIDToken(FirebaseTokenFixtures.good)
    clock.advance(by: .seconds(599))
    _ = try await provider.verifyIDToken(FirebaseTokenFixtures.good)
    #expect(stub.requestCount(path: Self.certsPath) == 1)
    clock.advance(by: .seconds(2))
    _ = try await provider.verifyIDToken(FirebaseTokenFixtures.good)
    #expect(stub.requestCount(path: Self.certsPath) == 2)
  }

  @Test(arguments: [
    ("expired", FirebaseTokenFixtures.expired, JOSEError.Reason.expired),
    ("future iat", FirebaseTokenFixtures.futureIat, .issuedInFuture),
    ("future auth_time", FirebaseTokenFixtures.futureAuthTime, .issuedInFuture),
    ("wrong project", FirebaseTokenFixtures.wrongProject, .issuerMismatch),
    ("wrong audience", FirebaseTokenFixtures.wrongAudience, .audienceMismatch),
    ("wrong key", FirebaseTokenFixtures.wrongKey, .signatureInvalid),
    ("missing kid", FirebaseTokenFixtures.missingKid, .keyNotFound),
    ("unknown kid", FirebaseTokenFixtures.unknownKid, .keyNotFound),
    ("sub too long", FirebaseTokenFixtures.longSubject, .malformed),
    ("empty sub", FirebaseTokenFixtures.emptySubject, .malformed),
    ("alg none outside emulator mode", FirebaseTokenFixtures.unsigned, .algorithmNotAllowed),
  ])
  func badTokensAreRejectedWithTheirReason(name: String, token: String, expected: JOSEError.Reason)
    async throws
  {
    let (provider, _, _) = try provider()
    #expect(await reason(token, provider: provider) == expected, "\(name)")
  }

  @Test func missingKidIsRejectedWithoutFetchingCertificates() async throws {
    let (provider, stub, _) = try provider()
    #expect(await reason(FirebaseTokenFixtures.missingKid, provider: provider) == .keyNotFound)
    #expect(stub.requests.isEmpty)
  }

  @Test func unsignedEmulatorTokensAreAcceptedOnlyInEmulatorMode() async throws {
    let (emulator, stub, _) = try provider(emulator: true)
    let token = try await emulator.verifyIDToken(FirebaseTokenFixtures.unsigned)
    #expect(token.isUnsigned)
    #expect(token.userID == "uid-123")
    #expect(stub.requests.isEmpty)
    // Claims are still checked in emulator mode, and signed tokens still need their key.
    #expect(await reason(FirebaseTokenFixtures.wrongKey, provider: emulator) == .signatureInvalid)
    let (production, _, _) = try provider()
    #expect(
      await reason(FirebaseTokenFixtures.unsigned, provider: production) == .algorithmNotAllowed)
  }

  @Test func certificateWithTrailingGarbageIsSkipped() async throws {
    let (provider, _, _) = try provider(certificates: [
      "key-1": FirebaseTokenFixtures.certificate1,
      "key-2": FirebaseTokenFixtures.certificate2WithTrailingGarbage,
    ])
    // key-2's certificate is refused, so its token has no key, while key-1 still works.
    #expect(await reason(FirebaseTokenFixtures.garbageKeyToken, provider: provider) == .keyNotFound)
    _ = try await provider.verifyIDToken(FirebaseTokenFixtures.good)
    let (clean, _, _) = try self.provider(certificates: [
      "key-2": FirebaseTokenFixtures.certificate2
    ])
    // The same key from its clean certificate verifies: the garbage alone was refused.
    _ = try await clean.verifyIDToken(FirebaseTokenFixtures.garbageKeyToken)
  }

  @Test func certificateReaderIsStrict() async throws {
    let accepts = FirebaseCertificateParsing.accepts
    #expect(try await accepts(FirebaseTokenFixtures.certificate1))
    #expect(try await !accepts(FirebaseTokenFixtures.certificate2WithTrailingGarbage))
    #expect(try await !accepts(FirebaseTokenFixtures.certificate1 + "junk"))
    #expect(try await !accepts("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----"))
    let body = FirebaseTokenFixtures.certificate1
      .replacingOccurrences(of: "\n-----END CERTIFICATE-----\n", with: "")
    let truncated = body.dropLast(8) + "\n-----END CERTIFICATE-----"
    #expect(try await !accepts(String(truncated)))
  }

  /// The same bound as the JWKS cache: old certificates are served past their max-age only
  /// for `maximumStaleness` while refetches fail.
  @Test func staleCertificatesAreServedOnlyForABoundedTime() async throws {
    let stub = StubTransport()
    let clock = ManualClock()
    let document = try JSONEncoder().encode(["key-1": FirebaseTokenFixtures.certificate1])
    stub.on(
      "GET", "/certs",
      reply: .json(
        String(decoding: document, as: UTF8.self), headers: ["Cache-Control": "max-age=60"]))
    stub.on("GET", "/certs", repeating: true, reply: .failure(AuthError(.network, "offline")))
    let cache = FirebaseCertificateCache(
      url: try #require(URL(string: "http://127.0.0.1:1/certs")), transport: stub, clock: clock,
      policy: .init(maximumStaleness: 600))
    let header = try CompactJWS(parsing: FirebaseTokenFixtures.good).header
    _ = try await cache.candidateKeys(for: header)
    clock.advance(by: .seconds(60 + 599))
    #expect(try await cache.candidateKeys(for: header).count == 1)
    clock.advance(by: .seconds(30))
    let error = await #expect(throws: AuthError.self) {
      _ = try await cache.candidateKeys(for: header)
    }
    #expect(error?.code == .network)
    #expect(error?.isTransient == true)
  }

  @Test func unreachableCertificatesAreATransientError() async throws {
    let stub = StubTransport()
    stub.on("GET", Self.certsPath, reply: .status(503, body: "<html>down</html>"))
    let provider = FirebaseProvider(
      configuration: .init(apiKey: "k", projectID: "demo-project", environment: [:]),
      transport: stub, clock: ManualClock())
    let error = await #expect(throws: AuthError.self) {
      _ = try await provider.verifyIDToken(FirebaseTokenFixtures.good)
    }
    #expect(error?.isTransient == true)
  }
}

/// Whether the certificate cache accepts one certificate, through its public surface.
enum FirebaseCertificateParsing {
  static func accepts(_ pem: String) async throws -> Bool {
    let stub = StubTransport()
    let document = try JSONEncoder().encode(["key-1": pem])
    stub.on("GET", "/certs", reply: .json(String(decoding: document, as: UTF8.self)))
    let cache = FirebaseCertificateCache(
      url: try #require(URL(string: "http://127.0.0.1:1/certs")), transport: stub,
      clock: ManualClock())
    let header = try CompactJWS(parsing: FirebaseTokenFixtures.good).header
    let accepted = (try? await cache.candidateKeys(for: header)) != nil
    #expect(accepted == (await cache.skipped.isEmpty))
    return accepted
  }
}
