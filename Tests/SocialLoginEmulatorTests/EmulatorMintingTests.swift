import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// Issue 20, item 5: the emulator mints what a mobile app holds, honours Firebase lifetimes,
/// and answers its settings and lifetimes as typed JSON.
@Suite("Emulator: minted tokens, lifetimes and settings", .timeLimit(.minutes(5)))
struct EmulatorMintingTests {
  /// The claims of a JWT (signed or not), unchecked.
  static func claims(of token: String) throws -> JSONValue {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    var base64 = String(parts.count > 1 ? parts[1] : "")
      .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return try JSONDecoder().decode(JSONValue.self, from: Data(base64Encoded: base64) ?? Data())
  }

  @Test(arguments: ["HS256", "ES256"])
  func aLINEIDTokenMintedOverHTTPVerifiesWithItsNonce(alg: String) async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.line(emulator, clock: SystemAuthClock())
      let answer = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/line/id-token"),
        #"{"user": "bob", "nonce": "n-42", "alg": "\#(alg)"}"#)
      #expect(answer.status == 200)
      let token = try #require(answer.json?["id_token"]?.stringValue)
      #expect(try CompactJWS(parsing: token).header.algorithm == alg)
      let verified = try await provider.verify(.idToken(Secret(token), nonce: "n-42"))
      #expect(verified.identity.subject == EmulatedUser.bob.subject(at: .line))
      await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.idToken(Secret(token), nonce: "another"))
      }
    }
  }

  @Test func aBackendVerifiesTheAppsIDTokenAndUsesItsNonceUpOnce() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.line(emulator, clock: SystemAuthClock())
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let nonces = NonceIssuer(store: InMemoryNonceStore())
      let nonce = try await nonces.issue()
      let token = Secret(try emulator.lineIDToken(nonce: nonce.revealed, algorithm: .es256))
      let verified = try await client.verify(idToken: token, from: .line, nonces: nonces)
      #expect(verified.identity.subject == EmulatedUser.alice.subject(at: .line))
      let replayed = await #expect(throws: AuthError.self) {
        _ = try await client.verify(idToken: token, from: .line, nonces: nonces)
      }
      #expect(replayed?.code == .invalidToken)
      #expect(replayed?.provider == .line)
      let foreign = Secret(try emulator.lineIDToken(nonce: "not-ours", algorithm: .hs256))
      await #expect(throws: AuthError.self) {
        _ = try await client.verify(idToken: foreign, from: .line, nonces: nonces)
      }
      let bare = Secret(try emulator.lineIDToken(nonce: nil, algorithm: .hs256))
      let missing = await #expect(throws: AuthError.self) {
        _ = try await client.verify(idToken: bare, from: .line, nonces: nonces)
      }
      #expect(missing?.message.contains("no nonce") == true)
    }
  }

  @Test func aTokenCarryingANonceNeedsTheNonceOrAnExplicitOptOut() async throws {
    try await ProviderEmulator.run { emulator in
      // LINE here, both ways it signs (Facebook Limited Login: FacebookVerifyTests, with its
      // RS256 keys as fixtures rather than the emulator's).
      let line = try EmulatedProviders.line(emulator, clock: SystemAuthClock())
      for algorithm in [JWSAlgorithm.hs256, .es256] {
        let token = Secret(
          try emulator.lineIDToken(nonce: "issued-elsewhere", algorithm: algorithm))
        let refused = await #expect(throws: AuthError.self) {
          _ = try await line.verify(.idToken(token, nonce: nil))
        }
        #expect(refused?.code == .invalidToken)
        #expect(refused?.joseError?.reason == .nonceMismatch)
        #expect(refused?.message.contains("idTokenAcceptingAnyNonce") == true)
        _ = try await line.verify(.idTokenAcceptingAnyNonce(token))
      }
      // A token without a nonce needs none.
      let bare = Secret(try emulator.lineIDToken(nonce: nil))
      _ = try await line.verify(.idToken(bare, nonce: nil))
      _ = try await line.verify(.idTokenAcceptingAnyNonce(bare))
    }
  }

  @Test func theSwiftEquivalentMintsForTheCurrentUserAndRefusesOtherAlgorithms() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.line(emulator, clock: SystemAuthClock())
      let token = try emulator.lineIDToken(nonce: "n-1", algorithm: .es256)
      let verified = try await provider.verify(.idToken(Secret(token), nonce: "n-1"))
      #expect(verified.identity.subject == EmulatedUser.alice.subject(at: .line))
      #expect(throws: AuthError.self) {
        _ = try emulator.lineIDToken(nonce: nil, algorithm: .rs256)
      }
      #expect(throws: AuthError.self) { _ = try emulator.lineIDToken(userID: "nobody", nonce: nil) }
      let bad = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/line/id-token"), #"{"alg": "RS256"}"#)
      #expect(bad.status == 400)
      let unknown = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/line/id-token"), #"{"user": "nobody"}"#)
      #expect(unknown.status == 404)
    }
  }

  @Test func firebaseTokensLiveTheLifetimeTheEmulatorIsGiven() async throws {
    try await ProviderEmulator.run { emulator in
      var lifetimes = emulator.lifetimes(for: .firebase)
      lifetimes.accessToken = 600
      emulator.setLifetimes(lifetimes, for: .firebase)
      let setup = try EmulatedFirebaseTests.Setup(emulator)
      let facebook = try await setup.client.login(.facebook, using: setup.agent)
      let signedIn = try await setup.firebase.signIn(with: facebook)
      let claims = try Self.claims(of: try await signedIn.idToken())
      let iat = try #require(claims["iat"]?.doubleValue)
      #expect(claims["exp"]?.doubleValue == iat + 600)
      let credential = try #require(await signedIn.session.credential)
      let expiresAt = try #require(credential.expiresAt)
      #expect(expiresAt.timeIntervalSince(credential.issuedAt) == 600, "expiresIn said 600")
      let refreshed = try await signedIn.session.forceRefresh()
      #expect(refreshed.expiresAt.map { $0.timeIntervalSince(refreshed.issuedAt) } == 600)
    }
  }

  /// Issue 33: lifetimes at or below the SDK's default leeway are set, with a `Warning`.
  @Test func aLifetimeWithinTheDefaultLeewayIsSetWithAWarning() async throws {
    try await ProviderEmulator.run { emulator in
      let short = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/lifetimes"),
        #"{"provider": "line", "access_token_ttl": 5}"#)
      #expect(short.status == 200)
      #expect(short.json?["line"]?["access_token_ttl"]?.doubleValue == 5)
      #expect(emulator.lifetimes(for: .line).accessToken == 5)
      let warning = try #require(short.headers["warning"])
      #expect(warning.hasPrefix("199 sociallogin-emulator \""))
      #expect(warning.contains("access tokens of 5 s"))
      #expect(warning.contains("RefreshPolicy.leeway, 30 s"))
      let long = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/lifetimes"),
        #"{"provider": "line", "access_token_ttl": 31}"#)
      #expect(long.status == 200)
      #expect(long.headers["warning"] == nil)
    }
  }

  @Test func lifetimesSettingsAndTheSecondFacebookAppAreListedOverHTTP() async throws {
    try await ProviderEmulator.run { emulator in
      let lifetimes = try await RawHTTP.send("GET", emulator.at("/_emulator/lifetimes"))
      #expect(lifetimes.status == 200)
      #expect(lifetimes.json?["twitter"]?["access_token_ttl"]?.doubleValue == 7200)
      #expect(lifetimes.json?["firebase"]?["access_token_ttl"]?.doubleValue == 3600)

      let status = try await RawHTTP.send("GET", emulator.at("/"))
      let apps = status.json?["apps"]?.arrayValue ?? []
      #expect(
        apps.contains { $0["client_id"]?.stringValue == EmulatorApps.facebookOtherAppID },
        "the second Facebook app, for token-substitution tests")

      let settings = try await RawHTTP.send("GET", emulator.at("/_emulator/settings"))
      #expect(settings.json?["facebook_requires_appsecret_proof"] == true, "a JSON boolean")
      #expect(settings.json?["line_id_token_alg"] == "HS256")
      let changed = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/settings"), #"{"line_id_token_alg": "ES256"}"#)
      #expect(changed.json?["line_id_token_alg"] == "ES256")
      #expect(emulator.lineSignsWithES256)
      #expect(emulator.settings.lineIDTokenAlgorithm == "ES256")
      for body in [
        #"{"line_id_token_alg": "RS256"}"#, #"{"facebook_requires_appsecret_proof": "false"}"#,
        #"{"no_such_setting": true}"#,
      ] {
        let refused = try await RawHTTP.json("POST", emulator.at("/_emulator/settings"), body)
        #expect(refused.status == 400, "\(body)")
      }
      #expect(emulator.facebookRequiresAppSecretProof, "a refused body changes nothing")
    }
  }
}
