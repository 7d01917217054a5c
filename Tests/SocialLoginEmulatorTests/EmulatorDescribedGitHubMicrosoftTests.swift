import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite(
  "Emulator: GitHub, Microsoft and Yahoo! JAPAN as their descriptions and dialects say",
  .timeLimit(.minutes(3)))
struct EmulatorDescribedGitHubMicrosoftTests {
  @Test func githubAnswersJSONOnlyWhenAskedAndErrorsWithStatus200() async throws {
    try await ProviderEmulator.run { emulator in
      var client = try DescribedTestClient(emulator, .github)
      client.acceptsJSON = false
      let code = try await client.code()
      let form = try await client.exchange(code)
      #expect(form.status == 200)
      #expect(form.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true)
      let fields = URLComponents(string: "?" + form.text)?.queryItems ?? []
      #expect(fields.first { $0.name == "access_token" }?.value != nil, "\(form.text)")
      #expect(fields.first { $0.name == "scope" }?.value == "read:user,user:email")
      let reused = try await client.exchange(code)
      #expect(reused.status == 200)
      #expect(
        reused.text.hasPrefix("error=bad_verification_code")
          || reused.text.contains("error=bad_verification_code"), "\(reused.text)")
      client.acceptsJSON = true
      let json = try await client.exchange(code)
      #expect(json.status == 200)
      #expect(json.string("error") == "bad_verification_code", "\(json.text)")
      let wrong = try await client.token(
        [("grant_type", "refresh_token"), ("refresh_token", "x")], secret: "wrong")
      #expect(wrong.status == 200)
      #expect(wrong.string("error") == "incorrect_client_credentials")

      // The reused code revoked its grant (RFC 6749 §4.1.2): sign in again.
      let access = try #require(
        try await client.exchange(try await client.code()).string("access_token"))
      let subject = EmulatedUser.alice.subject(at: .github)
      let user = try await client.call("user", bearer: access)
      #expect(user.text.contains("\"id\":\(subject),"), "\(user.text)")
      #expect(user.json?["login"]?.stringValue == "alice")
      let emails = try await client.call("emails", bearer: access)
      let list = try #require(emails.json?.arrayValue)
      let primary = try #require(list.first { $0["primary"]?.boolValue == true })
      #expect(primary["email"]?.stringValue == "alice@example.test")
      #expect(primary["verified"]?.boolValue == true)
      let bad = try await client.call("user", bearer: "nothing")
      #expect(bad.status == 401)
      #expect(bad.string("message") == "Bad credentials")
    }
  }

  @Test func githubDeviceLoginSlowsDownWithTheNewIntervalAndCanBeDisabledByAFault() async throws {
    // A manual clock: on a loaded machine two polls a real 5 s apart would not be too fast.
    try await ProviderEmulator.run(clock: ManualClock()) { emulator in
      let client = try DescribedTestClient(emulator, .github)
      let started = try await RawHTTP.form(
        try client.url("device"), [("client_id", client.app.clientID), ("scope", "read:user")],
        headers: ["Accept": "application/json"])
      #expect(started.status == 200, "\(started.text)")
      let deviceCode = try #require(started.string("device_code"))
      let userCode = try #require(started.string("user_code"))
      #expect(started.string("verification_uri")?.hasSuffix("/github.com/login/device") == true)
      let poll: [(String, String)] = [
        ("client_id", client.app.clientID), ("device_code", deviceCode),
        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
      ]
      let headers = ["Accept": "application/json"]
      let first = try await RawHTTP.form(try client.url("token"), poll, headers: headers)
      #expect(first.string("error") == "authorization_pending")
      let fast = try await RawHTTP.form(try client.url("token"), poll, headers: headers)
      #expect(fast.status == 200)
      #expect(fast.string("error") == "slow_down")
      #expect(fast.json?["interval"]?.doubleValue == 10, "\(fast.text)")
      let approve = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/device/approve"), #"{"user_code":"\#(userCode)"}"#)
      #expect(approve.status == 200)
      emulator.advanceClock(by: 11)
      let done = try await RawHTTP.form(try client.url("token"), poll, headers: headers)
      #expect(done.string("access_token") != nil, "\(done.text)")
      emulator.inject(
        EmulatorFault(
          provider: .github, endpoint: "device", status: 200, count: 1,
          problem: "device_flow_disabled"))
      let disabled = try await RawHTTP.form(
        try client.url("device"), [("client_id", client.app.clientID)], headers: headers)
      #expect(disabled.string("error") == "device_flow_disabled", "\(disabled.text)")
    }
  }

  @Test(arguments: [
    ("common", EmulatorApps.microsoftTenantID),
    ("organizations", EmulatorApps.microsoftTenantID),
    ("consumers", EmulatorApps.microsoftConsumersTenantID),
    ("0000aaaa-1111-4222-8333-444455556666", "0000aaaa-1111-4222-8333-444455556666"),
  ])
  func microsoftIssuersCarryTheTenantIDTheTokenNamesInTid(tenant: String, tid: String)
    async throws
  {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .microsoft, tenant: tenant)
      let tokens = try await client.exchange(try await client.code())
      let claims = try unverifiedClaims(try #require(tokens.string("id_token"), "\(tokens.text)"))
      #expect(claims["tid"]?.stringValue == tid)
      #expect(claims["iss"]?.stringValue == "https://login.microsoftonline.com/\(tid)/v2.0")
      #expect(claims["aud"]?.stringValue == EmulatorApps.microsoftClientID)
      #expect(claims["preferred_username"]?.stringValue == "alice@example.test")
      // Refresh tokens rotate every time.
      let first = try #require(tokens.string("refresh_token"))
      let refreshed = try await client.refresh(first)
      #expect(refreshed.string("refresh_token") != nil)
      let dead = try await client.refresh(first)
      #expect(dead.status == 400)
      #expect(dead.json?["error_codes"]?.arrayValue?.first?.doubleValue == 70008, "\(dead.text)")
      // A refresh at another tenant's endpoint is refused.
      var other = client
      other.tenant = tenant == "consumers" ? "common" : "consumers"
      let elsewhere = try await other.refresh(try #require(refreshed.string("refresh_token")))
      #expect(elsewhere.string("error") == "invalid_grant")
    }
  }

  @Test func microsoftDeviceCodeCarriesAMessageAndADeclineIsAuthorizationDeclined() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .microsoft)
      let started = try await RawHTTP.form(
        try client.url("device"), [("client_id", client.app.clientID), ("scope", "openid")])
      #expect(started.json?["expires_in"]?.doubleValue == 900)
      let userCode = try #require(started.string("user_code"))
      #expect(started.string("message")?.contains(userCode) == true, "\(started.text)")
      let poll: [(String, String)] = [
        ("client_id", client.app.clientID),
        ("device_code", try #require(started.string("device_code"))),
        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
      ]
      let pending = try await RawHTTP.form(try client.url("token"), poll)
      #expect(pending.status == 400)
      #expect(pending.string("error") == "authorization_pending")
      #expect(pending.json?["error_codes"]?.arrayValue?.first?.doubleValue == 70016)
      #expect(emulator.denyDeviceLogin(userCode: userCode))
      emulator.advanceClock(by: 6)
      let declined = try await RawHTTP.form(try client.url("token"), poll)
      #expect(declined.string("error") == "authorization_declined", "\(declined.text)")
    }
  }

  @Test func yahooJapanWantsBasicAuthenticationANonceAndSaysAudAsAnArray() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .yahooJapan)
      let noNonce = try await client.authorize(
        client.authorizeQuery { $0.removeAll { $0.0 == "nonce" } })
      #expect(noNonce["error"] == "invalid_request")
      let code = try await client.code()
      let posted = try await client.token(
        [
          ("grant_type", "authorization_code"), ("code", code),
          ("redirect_uri", client.redirectURI), ("code_verifier", client.verifier),
        ], basic: false)
      #expect(posted.status == 400 || posted.status == 401)
      #expect(posted.string("error") == "invalid_client", "\(posted.text)")
      // The refused request did not spend the code.
      let tokens = try await client.exchange(code)
      let claims = try unverifiedClaims(try #require(tokens.string("id_token"), "\(tokens.text)"))
      #expect(claims["aud"]?.arrayValue == [.string(EmulatorApps.yahooJapanClientID)])
      #expect(claims["iss"]?.stringValue == "https://auth.login.yahoo.co.jp/yconnect/v2")
      #expect(claims["nonce"]?.stringValue == "nonce-1")
      let userinfo = try await client.call(
        "userinfo", bearer: try #require(tokens.string("access_token")))
      #expect(userinfo.string("sub") == EmulatedUser.alice.subject(at: .yahooJapan))
      #expect(userinfo.json?["email_verified"]?.boolValue == true)
    }
  }
}
