import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Issue 20 item 9: every provider's verify failure names its provider, including the
/// failures the JOSE layer finds (a malformed token, a wrong signature, audience or nonce).
@Suite("Verify failures name their provider")
struct ProviderNamingTests {
  /// The error `body` throws, which must be an ``AuthError``.
  func failure(_ body: () async throws -> Void) async throws -> AuthError {
    do {
      try await body()
    } catch let error as AuthError {
      return error
    }
    Issue.record("no AuthError was thrown")
    throw CancellationError()
  }

  @Test func lineIDTokenFailuresNameLINE() async throws {
    let fixture = try LINEFixture()
    let malformed = try await failure {
      _ = try await fixture.provider.verify(.idToken(Secret("not-a-jwt"), nonce: nil))
    }
    #expect(malformed.provider == .line)
    #expect(malformed.joseError?.reason == .malformed)

    let wrongKey = LINEFixture.hs256(nonce: "n-1", secret: "another-channel-secret")
    let signature = try await failure {
      _ = try await fixture.provider.verify(.idToken(Secret(wrongKey), nonce: "n-1"))
    }
    #expect(signature.provider == .line)
    #expect(signature.joseError?.reason == .signatureInvalid)

    let token = LINEFixture.hs256(nonce: "n-1")
    let nonce = try await failure {
      _ = try await fixture.provider.verify(.idToken(Secret(token), nonce: "n-2"))
    }
    #expect(nonce.code == .invalidToken)
    #expect(nonce.provider == .line)
    #expect(nonce.joseError?.reason == .nonceMismatch)

    let otherChannel = LINEFixture.hs256(nonce: "n-1", merging: ["aud": "1999999999"])
    let audience = try await failure {
      _ = try await fixture.provider.verify(.idToken(Secret(otherChannel), nonce: "n-1"))
    }
    #expect(audience.provider == .line)
    #expect(audience.joseError?.reason == .audienceMismatch)
  }

  @Test func facebookLimitedLoginFailuresNameFacebook() async throws {
    let fixture = try FacebookFixture()
    let error = try await failure {
      _ = try await fixture.provider.verify(.idToken(Secret("not-a-jwt"), nonce: nil))
    }
    #expect(error.provider == .facebook)
    #expect(error.joseError?.reason == .malformed)
  }

  @Test func oidcIDTokenFailuresNameTheProvider() async throws {
    let fixture = try OIDCStubProvider()
    let malformed = try await failure {
      _ = try await fixture.provider.verify(.idToken(Secret("not-a-jwt"), nonce: nil))
    }
    #expect(malformed.provider == "corp")
    let token = OIDCStubProvider.jwt(typ: "JWT", ["nonce": "n-1"])
    let nonce = try await failure {
      _ = try await fixture.provider.verify(.idToken(Secret(token), nonce: "n-2"))
    }
    #expect(nonce.provider == "corp")
    #expect(nonce.joseError?.reason == .nonceMismatch)
  }

  @Test func firebaseIDTokenFailuresNameFirebase() async throws {
    let fixture = try FirebaseFixture()
    let error = try await failure {
      _ = try await fixture.provider.verify(.idToken(Secret("not-a-jwt"), nonce: nil))
    }
    #expect(error.provider == .firebase)
    #expect(error.joseError?.reason == .malformed)
  }

  @Test func xAccessTokenFailuresNameX() async throws {
    let stub = StubTransport()
    let provider = try XFixture.provider(stub, clock: ManualClock())
    stub.on("GET", "/2/users/me", reply: .json(XFixture.unauthorizedProblem, status: 401))
    let error = try await failure {
      _ = try await provider.verify(.accessToken(Secret("dead-token")))
    }
    #expect(error.provider == .twitter)
  }
}
