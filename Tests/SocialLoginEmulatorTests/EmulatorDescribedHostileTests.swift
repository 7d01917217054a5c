import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: described providers refuse hostile requests", .timeLimit(.minutes(3)))
struct EmulatorDescribedHostileTests {
  @Test func aPKCEMismatchAWrongRedirectAndAReusedCodeAreRefused() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .microsoft)
      let mismatch = try await client.exchange(
        try await client.code(), verifier: String(repeating: "w", count: 50))
      #expect(mismatch.string("error") == "invalid_grant", "\(mismatch.text)")
      #expect(mismatch.json?["error_codes"]?.arrayValue?.first?.doubleValue == 50148)
      let noVerifier = try await client.token([
        ("grant_type", "authorization_code"), ("code", try await client.code()),
        ("redirect_uri", client.redirectURI),
      ])
      #expect(noVerifier.string("error") == "invalid_grant")
      let elsewhere = try await client.token([
        ("grant_type", "authorization_code"), ("code", try await client.code()),
        ("redirect_uri", "http://127.0.0.1/other"), ("code_verifier", client.verifier),
      ])
      #expect(elsewhere.string("error") == "invalid_grant")
      let code = try await client.code()
      let first = try await client.exchange(code)
      let access = try #require(first.string("access_token"))
      let second = try await client.exchange(code)
      #expect(second.string("error") == "invalid_grant")
      // The second use revoked what the first issued.
      let refresh = try await client.refresh(try #require(first.string("refresh_token")))
      #expect(refresh.string("error") == "invalid_grant", "\(refresh.text)")
      _ = access
    }
  }

  @Test func aPlainChallengeAForeignClientAndRepeatedParametersNeverYieldACode() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .kakao)
      let plain = try await client.authorize(
        client.authorizeQuery { query in
          query.removeAll { $0.0 == "code_challenge_method" }
        })
      #expect(plain["error"] == "invalid_request")
      let repeated = try await client.authorize(
        client.authorizeQuery { $0.append(("state", "second")) })
      #expect(repeated["error"] == "invalid_request")
      let foreign = try await RawHTTP.send(
        "GET",
        try client.url(
          "authorize",
          query: client.authorizeQuery { query in
            query.removeAll { $0.0 == "client_id" }
            query.append(("client_id", "someone-else"))
          }))
      #expect(foreign.status == 400)
      #expect(foreign.headers["location"] == nil)
      let script = try await RawHTTP.send(
        "GET",
        try client.url(
          "authorize",
          query: client.authorizeQuery { query in
            query.removeAll { $0.0 == "redirect_uri" }
            query.append(("redirect_uri", "javascript alert(1)"))
          }))
      #expect(script.status == 400)
    }
  }

  /// A tenant segment the server itself refuses (a NUL) or splits (an encoded slash) is
  /// answered 400 or 404; one that reaches the provider is Microsoft's AADSTS90002.
  @Test(arguments: [
    ("bad%00tenant", false), ("a%2Fb", false), ("%3Cscript%3E", true),
    (String(repeating: "t", count: 80), true), ("tenant%20id", false),
  ])
  func tenantsWithOtherCharactersAreRefused(_ tenant: String, reachesTheProvider: Bool)
    async throws
  {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .microsoft, tenant: tenant)
      let token = try await client.refresh("x")
      #expect([400, 404].contains(token.status), "\(token.text)")
      #expect(token.json?["access_token"] == nil)
      if reachesTheProvider {
        #expect(
          token.json?["error_codes"]?.arrayValue?.first?.doubleValue == 90002, "\(token.text)")
      }
      let authorize = try await RawHTTP.send(
        "GET", try client.url("authorize", query: client.authorizeQuery()))
      #expect([400, 404].contains(authorize.status))
      #expect(authorize.headers["location"] == nil)
    }
  }

  @Test func oversizedMalformedAndMisauthenticatedTokenRequestsAreRefused() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .naver)
      let huge = try await RawHTTP.send(
        "POST", try client.url("token"),
        body: Data(
          ("grant_type=refresh_token&refresh_token=" + String(repeating: "a", count: 2 << 20)).utf8),
        contentType: "application/x-www-form-urlencoded")
      #expect(huge.status == 413)
      let malformed = try await RawHTTP.send(
        "POST", try client.url("token"), body: Data("grant_type=%zz&%%".utf8),
        contentType: "application/x-www-form-urlencoded")
      #expect(malformed.string("error") == "invalid_request", "\(malformed.text)")
      let unknownGrant = try await client.token([("grant_type", "password")])
      #expect(unknownGrant.string("error") == "unsupported_grant_type")
      let noSecret = try await RawHTTP.form(
        try client.url("token"),
        [
          ("grant_type", "refresh_token"), ("refresh_token", "x"),
          ("client_id", client.app.clientID),
        ])
      #expect(noSecret.string("error") == "invalid_client", "\(noSecret.text)")
      let yahoo = try DescribedTestClient(emulator, .yahooJapan)
      let garbage = try await RawHTTP.form(
        try yahoo.url("token"), [("grant_type", "refresh_token"), ("refresh_token", "x")],
        headers: ["Authorization": "Basic !!!not-base64"])
      #expect(garbage.string("error") == "invalid_client")
      let github = try DescribedTestClient(emulator, .github)
      let stranger = Data("someone:secret".utf8).base64EncodedString()
      let grant = try await RawHTTP.send(
        "DELETE", try github.url("revoke"), body: Data(#"{"access_token":"x"}"#.utf8),
        contentType: "application/json", headers: ["Authorization": "Basic " + stranger])
      #expect(grant.status == 401)
      let wrongMethod = try await RawHTTP.send("GET", try github.url("revoke"))
      #expect(wrongMethod.status == 405)
    }
  }

  @Test func aDisabledAccountIsRefusedInTheProvidersOwnShape() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .kakao)
      let tokens = try await client.exchange(try await client.code())
      let access = try #require(tokens.string("access_token"))
      #expect(emulator.updateUser("alice") { $0.isDisabled = true })
      let me = try await client.call("userinfo", bearer: access)
      #expect(me.status == 403)
      #expect(me.text.contains("\"code\":-103"), "\(me.text)")
      let refresh = try await client.refresh(try #require(tokens.string("refresh_token")))
      #expect(refresh.string("error") == "invalid_grant")
    }
  }
}
