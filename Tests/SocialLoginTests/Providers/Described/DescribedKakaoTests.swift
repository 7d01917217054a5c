import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite("Described provider: Kakao")
struct DescribedKakaoTests {
  static let issuer = "https://kauth.kakao.com"
  static let bigID = "4012345678901234567"

  @Test("login sends PKCE, state, nonce and comma-joined scopes; the id stays exact past 2^53")
  func loginKeepsTheIDExact() async throws {
    let fixture = try DescribedFixture(.kakao)
    var configuration = fixture.provider.configuration
    configuration.scopes = ["openid", "account_email"]
    let provider = DescribedProvider(
      configuration: configuration, transport: fixture.stub, clock: fixture.clock)
    let request = try await provider.makeAuthorizationRequest(
      redirectURI: DescribedFixture.redirectURI)
    let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let items = Dictionary(query.map { ($0.name, $0.value ?? "") }) { first, _ in first }
    #expect(items["scope"] == "openid,account_email")
    #expect(items["code_challenge_method"] == "S256")
    #expect(items["state"]?.isEmpty == false)
    #expect(items["nonce"]?.isEmpty == false)

    let credential = try await fixture.login { nonce in
      let token = DescribedFixture.idToken(
        issuer: Self.issuer, ["sub": .string(Self.bigID), "nonce": nonce.map(JSONValue.string)])
      return
        #"{"token_type":"bearer","access_token":"kAT","id_token":"\#(token)","expires_in":21599,"refresh_token":"kRT","refresh_token_expires_in":5183999,"scope":"openid account_email"}"#
    }
    #expect(credential.expiresAt == fixture.clock.wallTime.addingTimeInterval(21599))
    #expect(credential.scopes == ["openid", "account_email"])
    #expect(fixture.lastForm(fixture.path("token"))["client_secret"] == "secret-1")
    #expect(fixture.lastForm(fixture.path("token"))["code_verifier"]?.isEmpty == false)
    fixture.stub.on(
      "GET", fixture.path("userinfo"),
      reply: .json(
        #"{"id":\#(Self.bigID),"kakao_account":{"profile":{"nickname":"지우"},"is_email_valid":true,"is_email_verified":true,"email":"jiwoo@example.kr"}}"#
      ))
    let identity = try await fixture.provider.fetchIdentity(for: credential)
    #expect(identity.subject == Self.bigID)
    #expect(identity.name == "지우")
    #expect(identity.email == "jiwoo@example.kr")
    #expect(identity.emailVerified == true)
  }

  @Test("a login without an ID token is accepted: Kakao issues one only with OpenID Connect on")
  func loginWithoutIDToken() async throws {
    let fixture = try DescribedFixture(.kakao, secret: nil)
    let credential = try await fixture.login { _ in
      #"{"access_token":"kAT","expires_in":21599,"refresh_token":"kRT"}"#
    }
    #expect(credential.idToken == nil)
    #expect(fixture.lastForm(fixture.path("token"))["client_secret"] == nil)
    #expect(fixture.lastForm(fixture.path("token"))["client_id"] == DescribedFixture.clientID)
  }

  @Test("a profile and an ID token that name different users are refused")
  func subjectsMustMatch() async throws {
    let fixture = try DescribedFixture(.kakao)
    let token = DescribedFixture.idToken(issuer: Self.issuer, ["sub": "111"])
    let credential = Credential(accessToken: "kAT", idToken: Secret(token))
    fixture.stub.on("GET", fixture.path("userinfo"), reply: .json(#"{"id":222}"#))
    let error = await describedError {
      _ = try await fixture.provider.fetchIdentity(for: credential)
    }
    #expect(error?.code == .invalidResponse)
  }

  @Test("a refresh without a refresh token keeps the old one and its expiry")
  func refreshKeepsTheOldRefreshToken() async throws {
    let fixture = try DescribedFixture(.kakao)
    let old = Credential(
      accessToken: "kAT", refreshToken: "kRT-old", issuedAt: fixture.clock.wallTime,
      extra: [DescribedAnswers.refreshTokenExpiresAtKey: "1705000000"])
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"token_type":"bearer","access_token":"kAT-2","expires_in":21599}"#))
    let refreshed = try await fixture.provider.refresh(old)
    #expect(refreshed.accessToken.revealed == "kAT-2")
    #expect(refreshed.refreshToken?.revealed == "kRT-old")
    #expect(refreshed.extra[DescribedAnswers.refreshTokenExpiresAtKey] == "1705000000")
    #expect(fixture.lastForm(fixture.path("token"))["grant_type"] == "refresh_token")

    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(
        #"{"access_token":"kAT-3","expires_in":21599,"refresh_token":"kRT-new","refresh_token_expires_in":5183999}"#
      ))
    let rotated = try await fixture.provider.refresh(refreshed)
    #expect(rotated.refreshToken?.revealed == "kRT-new")
    #expect(
      rotated.extra[DescribedAnswers.refreshTokenExpiresAtKey]
        == String(Int64(fixture.clock.wallTime.timeIntervalSince1970) + 5_183_999))
  }

  @Test(
    "KOE322 signs out, KOE010 keeps the session naming the REST API key, an HTML page is transient")
  func refreshErrors() async throws {
    let fixture = try DescribedFixture(.kakao)
    let old = Credential(accessToken: "kAT", refreshToken: "kRT")
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(
        #"{"error":"invalid_grant","error_description":"expired_or_invalid_refresh_token","error_code":"KOE322"}"#,
        status: 400))
    let dead = try #require(await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(
      fixture.provider.classifyRefreshFailure(dead) == .refreshTokenInvalid(.refreshTokenExpired))

    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"error":"invalid_client","error_code":"KOE010"}"#, status: 401))
    let misconfigured = try #require(
      await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(misconfigured.code == .configuration)
    #expect(misconfigured.message.contains("REST API key"))
    #expect(misconfigured.message.contains("clientSecret"))
    #expect(fixture.provider.classifyRefreshFailure(misconfigured) == .transient(retryAfter: nil))

    fixture.stub.on("POST", fixture.path("token"), reply: .status(400, body: "<html>WAF</html>"))
    let page = try #require(await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(fixture.provider.classifyRefreshFailure(page) == .transient(retryAfter: nil))

    // `error_code` decides before `error`: KOE237 (rate limit) with `invalid_grant` is transient.
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"error":"invalid_grant","error_code":"KOE237"}"#, status: 400))
    let limited = try #require(await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(fixture.provider.classifyRefreshFailure(limited) == .transient(retryAfter: nil))
  }

  @Test("a numeric expires_in written as a string is unreadable for Kakao")
  func stringExpiryRefused() async throws {
    let fixture = try DescribedFixture(.kakao)
    fixture.stub.on(
      "POST", fixture.path("token"), reply: .json(#"{"access_token":"kAT","expires_in":"21599"}"#))
    let error = await describedError {
      _ = try await fixture.provider.refresh(Credential(accessToken: "a", refreshToken: "r"))
    }
    #expect(error?.code == .invalidResponse)
  }

  @Test("revocation unlinks with the access token")
  func unlink() async throws {
    let fixture = try DescribedFixture(.kakao)
    fixture.stub.on("POST", fixture.path("unlink"), reply: .json(#"{"id":\#(Self.bigID)}"#))
    try await fixture.provider.revoke(Credential(accessToken: "kAT", refreshToken: "kRT"))
    let request = try #require(fixture.stub.requests.last)
    #expect(request.url.path == "/v1/user/unlink")
    #expect(request.headers["Authorization"] == "Bearer kAT")
    fixture.stub.on("POST", fixture.path("unlink"), reply: .json(#"{"code":-401}"#, status: 401))
    let error = await describedError {
      try await fixture.provider.revoke(Credential(accessToken: "kAT"))
    }
    #expect(error?.code == .invalidToken)
  }

  @Test("an access token is this app's only when access_token_info's app_id is the configured one")
  func verifyAccessToken() async throws {
    let fixture = try DescribedFixture(.kakao, appID: "1234567")
    fixture.stub.on(
      "GET", fixture.path("tokeninfo"), repeating: true,
      reply: .json(#"{"id":\#(Self.bigID),"expires_in":7199,"app_id":1234567}"#))
    fixture.stub.on(
      "GET", fixture.path("userinfo"), repeating: true,
      reply: .json(#"{"id":\#(Self.bigID),"kakao_account":{"profile":{"nickname":"지우"}}}"#))
    let verified = try await fixture.provider.verify(.accessToken("kAT"))
    #expect(verified.identity.subject == Self.bigID)
    #expect(verified.audience == .proven(audience: "1234567"))
    #expect(verified.expiresAt == fixture.clock.wallTime.addingTimeInterval(7199))

    let other = try DescribedFixture(.kakao, appID: "7654321")
    other.stub.on(
      "GET", other.path("tokeninfo"),
      reply: .json(#"{"id":\#(Self.bigID),"expires_in":7199,"app_id":1234567}"#))
    let error = await describedError { _ = try await other.provider.verify(.accessToken("kAT")) }
    #expect(error?.code == .invalidToken)
  }

  @Test("an ID token from the app's native key verifies when that key is an audience")
  func verifyIDToken() async throws {
    let fixture = try DescribedFixture(.kakao, audiences: ["native-key"])
    let token = DescribedFixture.idToken(
      issuer: Self.issuer,
      ["aud": "native-key", "sub": .string(Self.bigID), "nickname": "지우", "nonce": "n-1"])
    let verified = try await fixture.provider.verify(.idToken(Secret(token), nonce: "n-1"))
    #expect(verified.identity.subject == Self.bigID)
    #expect(verified.identity.name == "지우")
    #expect(verified.audience == .proven(audience: "native-key"))

    let stranger = DescribedFixture.idToken(issuer: Self.issuer, ["aud": "another-app"])
    let error = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(stranger), nonce: nil))
    }
    #expect(error?.code == .invalidToken)
  }
}
