import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: X through the real XProvider", .timeLimit(.minutes(3)))
struct EmulatorXTests {
  @Test func loginRefreshIdentityVerifyAndRevokeOverHTTP() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.x(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      let identity = try #require(await session.identity)
      #expect(identity.name == "Alice Example")
      #expect(identity.subject == EmulatedUser.alice.subject(at: .twitter))

      let first = try await session.freshAccessToken()
      clock.advance(by: .seconds(7200))
      let second = try await session.freshAccessToken()
      #expect(first != second)
      #expect(
        emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token").count == 1)

      let verified = try await provider.verify(.accessToken(Secret(second)))
      #expect(verified.identity.subject == identity.subject)

      let outcome = try await session.signOut(revoke: true)
      guard case .revoked = outcome else {
        Issue.record("revocation outcome \(outcome)")
        return
      }
      await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.accessToken(Secret(second)))
      }
      #expect(emulator.requests(to: .twitter, endpoint: "revoke").allSatisfy { $0.status == 200 })
    }
  }

  @Test func thousandConcurrentCallersAfterExpiryCauseOneRefresh() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.x(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      clock.advance(by: .seconds(7300))
      emulator.clearRequests()
      let tokens = try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<1000 { group.addTask { try await session.freshAccessToken() } }
        var seen: Set<String> = []
        for try await token in group { seen.insert(token) }
        return seen
      }
      #expect(tokens.count == 1)
      #expect(
        emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token").count == 1)
    }
  }

  @Test func aSpentRefreshTokenIsInvalidRequestAsSection7Says() async throws {
    try await ProviderEmulator.run { emulator in
      let verifier = String(repeating: "v", count: 43)
      let challenge = "7w_YNF9DSfIdPf_pRjSq646_kPr-2-o9NAl16JGghdM"  // S256 of 43 × "v"
      let authorize = emulator.at(
        "/x.com/i/oauth2/authorize?response_type=code&client_id=\(EmulatorApps.twitterPublicClientID)"
          + "&redirect_uri=http://127.0.0.1/cb&scope=users.read%20offline.access&state=s1"
          + "&code_challenge=\(challenge)&code_challenge_method=S256")
      let landed = try await emulator.approve(authorize)
      let code = try #require(
        URLComponents(url: landed, resolvingAgainstBaseURL: false)?.queryItems?.first {
          $0.name == "code"
        }?.value)
      let token = emulator.at("/api.x.com/2/oauth2/token")
      let exchanged = try await RawHTTP.form(
        token,
        [
          ("grant_type", "authorization_code"), ("code", code),
          ("redirect_uri", "http://127.0.0.1/cb"),
          ("code_verifier", verifier), ("client_id", EmulatorApps.twitterPublicClientID),
        ])
      #expect(exchanged.status == 200)
      let refresh = try #require(exchanged.json?["refresh_token"]?.stringValue)
      let rotated = try await RawHTTP.form(
        token,
        [
          ("grant_type", "refresh_token"), ("refresh_token", refresh),
          ("client_id", EmulatorApps.twitterPublicClientID),
        ])
      #expect(rotated.status == 200)
      #expect(rotated.json?["refresh_token"]?.stringValue != refresh)
      let reused = try await RawHTTP.form(
        token,
        [
          ("grant_type", "refresh_token"), ("refresh_token", refresh),
          ("client_id", EmulatorApps.twitterPublicClientID),
        ])
      #expect(reused.status == 400)
      #expect(reused.json?["error"]?.stringValue == "invalid_request")
      #expect(
        reused.json?["error_description"]?.stringValue == "Value passed for the token was invalid.")
      // A code used twice is refused (and, per RFC 6749 §4.1.2, revokes what it issued).
      let again = try await RawHTTP.form(
        token,
        [
          ("grant_type", "authorization_code"), ("code", code),
          ("redirect_uri", "http://127.0.0.1/cb"),
          ("code_verifier", verifier), ("client_id", EmulatorApps.twitterPublicClientID),
        ])
      #expect(again.status == 400)
      #expect(again.json?["error"]?.stringValue == "invalid_request")
    }
  }

  @Test func rateLimitDegradesUntilResetThenRecovers() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.x(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      clock.advance(by: .seconds(7300))
      emulator.inject(
        EmulatorFault(
          provider: .twitter, endpoint: "token", status: 429, rateLimitResetSeconds: 120, count: 1))
      await #expect(throws: AuthError.self) { _ = try await session.freshAccessToken() }
      guard case .degraded(let retryAt) = session.currentState else {
        Issue.record("expected degraded, got \(session.currentState)")
        return
      }
      #expect(abs(retryAt.timeIntervalSince(emulator.now) - 120) < 5)
      clock.advance(by: .seconds(121))
      _ = try await session.freshAccessToken()
      #expect(session.currentState == .signedIn)
    }
  }

  @Test func revokedRefreshTokenSignsOut() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.x(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      #expect(emulator.revokeTokens(provider: .twitter, userID: "alice") == 1)
      clock.advance(by: .seconds(7300))
      await #expect(throws: AuthError.self) { _ = try await session.freshAccessToken() }
      guard case .signedOut = session.currentState else {
        Issue.record("expected signed out, got \(session.currentState)")
        return
      }
    }
  }

  @Test(arguments: [EmulatorFault.Body.html, .truncated, .malformed])
  func brokenBodiesDegradeInsteadOfSigningOut(_ body: EmulatorFault.Body) async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.x(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      clock.advance(by: .seconds(7300))
      emulator.inject(EmulatorFault(provider: .twitter, endpoint: "token", body: body, count: 1))
      await #expect(throws: AuthError.self) { _ = try await session.freshAccessToken() }
      guard case .degraded = session.currentState else {
        Issue.record("expected degraded after \(body), got \(session.currentState)")
        return
      }
    }
  }

  @Test func oauth1LoginVerifyAndInvalidate() async throws {
    let clock = SystemAuthClock()
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.xOAuth1(emulator, clock: clock)
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      let identity = try #require(await session.identity)
      #expect(identity.name == "Alice Example")
      let credential = try #require(await session.credential)
      let secret = try #require(credential.tokenSecret)
      let verified = try await provider.verify(
        .oauth1(token: credential.accessToken, secret: secret))
      #expect(verified.identity.subject == identity.subject)
      _ = try await session.signOut(revoke: true)
      #expect(emulator.requests(to: .twitter, endpoint: "invalidate_token").map(\.status) == [200])
      await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.oauth1(token: credential.accessToken, secret: secret))
      }
    }
  }
}
