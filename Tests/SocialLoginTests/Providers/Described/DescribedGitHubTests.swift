import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite("Described provider: GitHub")
struct DescribedGitHubTests {
  @Test("login asks for JSON; the identity is /user with the primary verified address")
  func login() async throws {
    let fixture = try DescribedFixture(.github)
    let credential = try await fixture.login { _ in
      #"{"access_token":"gho_abc","token_type":"bearer","scope":"read:user,user:email"}"#
    }
    let sent = try #require(fixture.stub.requests.last)
    #expect(sent.headers["Accept"] == "application/json")
    #expect(credential.expiresAt == nil)
    #expect(credential.scopes == ["read:user", "user:email"])
    fixture.stub.on(
      "GET", fixture.path("user"),
      reply: .json(
        #"{"login":"octocat","id":583231,"name":null,"avatar_url":"https://a.example/u"}"#))
    fixture.stub.on(
      "GET", fixture.path("emails"),
      reply: .json(
        #"[{"email":"old@example.com","primary":false,"verified":true},{"email":"octo@example.com","primary":true,"verified":true}]"#
      ))
    let identity = try await fixture.provider.fetchIdentity(for: credential)
    #expect(identity.subject == "583231")
    #expect(identity.name == "octocat")
    #expect(identity.email == "octo@example.com")
    #expect(identity.emailVerified == true)
  }

  @Test("expiring user tokens rotate; bad_refresh_token in a 200 answer signs out")
  func refresh() async throws {
    let fixture = try DescribedFixture(.github)
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(
        #"{"access_token":"ghu_2","expires_in":28800,"refresh_token":"ghr_2","refresh_token_expires_in":15811200,"token_type":"bearer","scope":""}"#
      ))
    let refreshed = try await fixture.provider.refresh(
      Credential(accessToken: "ghu_1", refreshToken: "ghr_1"))
    #expect(refreshed.refreshToken?.revealed == "ghr_2")
    #expect(fixture.provider.capabilities.contains(.rotatesRefreshTokens))

    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(
        #"{"error":"bad_refresh_token","error_description":"The refresh token passed is incorrect or expired."}"#
      ))
    let error = try #require(
      await describedError { _ = try await fixture.provider.refresh(refreshed) })
    #expect(
      fixture.provider.classifyRefreshFailure(error) == .refreshTokenInvalid(.refreshTokenExpired))
    fixture.stub.on(
      "POST", fixture.path("token"), reply: .json(#"{"error":"incorrect_client_credentials"}"#))
    let misconfigured = try #require(
      await describedError { _ = try await fixture.provider.refresh(refreshed) })
    #expect(misconfigured.code == .configuration)
    #expect(misconfigured.message.contains("Client ID"))
  }

  @Test("revocation deletes the grant with Basic credentials and the token in a JSON body")
  func revocation() async throws {
    let fixture = try DescribedFixture(.github)
    fixture.stub.on("DELETE", "/applications/client-1/grant", reply: .status(204))
    try await fixture.provider.revoke(Credential(accessToken: "gho_abc"))
    let sent = try #require(fixture.stub.requests.last)
    #expect(sent.method == "DELETE")
    #expect(
      sent.headers["Authorization"]
        == FormEncoding.basicAuthorization(clientID: "client-1", clientSecret: "secret-1"))
    let body = try #require(sent.body)
    #expect(String(decoding: body, as: UTF8.self) == #"{"access_token":"gho_abc"}"#)
    fixture.stub.on(
      "DELETE", "/applications/client-1/grant",
      reply: .json(#"{"message":"Validation Failed"}"#, status: 422))
    let error = await describedError {
      try await fixture.provider.revoke(Credential(accessToken: "x"))
    }
    #expect(error?.code == .invalidResponse)
  }

  @Test("device login: slow_down carries the new interval; device_flow_disabled is configuration")
  func deviceLogin() async throws {
    let fixture = try DescribedFixture(.github, secret: nil)
    fixture.stub.on(
      "POST", fixture.path("device"),
      reply: .json(
        #"{"device_code":"dc","user_code":"WDJB-MJHT","verification_uri":"https://github.com/login/device","expires_in":900,"interval":5}"#
      ))
    let authorization = try await fixture.provider.startDeviceLogin(scopes: nil)
    #expect(authorization.userCode == "WDJB-MJHT")
    #expect(fixture.lastForm(fixture.path("device"))["scope"] == "read:user user:email")
    fixture.stub.on(
      "POST", fixture.path("token"), reply: .json(#"{"error":"authorization_pending"}"#))
    fixture.stub.on(
      "POST", fixture.path("token"), reply: .json(#"{"error":"slow_down","interval":10}"#))
    fixture.stub.on("POST", fixture.path("token"), reply: .json(#"{"access_token":"gho_dev"}"#))
    guard case .pending = try await fixture.provider.pollDeviceLogin(authorization) else {
      Issue.record("expected pending")
      return
    }
    guard case .slowDown(let interval) = try await fixture.provider.pollDeviceLogin(authorization)
    else {
      Issue.record("expected slow_down")
      return
    }
    #expect(interval == 10)
    guard case .approved(let credential) = try await fixture.provider.pollDeviceLogin(authorization)
    else {
      Issue.record("expected approval")
      return
    }
    #expect(credential.accessToken.revealed == "gho_dev")
    #expect(
      fixture.lastForm(fixture.path("token"))["grant_type"]
        == "urn:ietf:params:oauth:grant-type:device_code")

    fixture.stub.on(
      "POST", fixture.path("device"), reply: .json(#"{"error":"device_flow_disabled"}"#))
    let disabled = await describedError {
      _ = try await fixture.provider.startDeviceLogin(scopes: nil)
    }
    #expect(disabled?.code == .configuration)
    fixture.stub.on(
      "POST", fixture.path("token"), reply: .json(#"{"error":"incorrect_device_code"}"#))
    let wrong = await describedError {
      _ = try await fixture.provider.pollDeviceLogin(authorization)
    }
    #expect(wrong?.code == .providerError)
    fixture.stub.on("POST", fixture.path("token"), reply: .json(#"{"error":"expired_token"}"#))
    let expired = await describedError {
      _ = try await fixture.provider.pollDeviceLogin(authorization)
    }
    #expect(expired?.code == .deviceCodeExpired)
  }
}
