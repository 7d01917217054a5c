import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite("Described provider: NAVER")
struct DescribedNAVERTests {
  static let profile =
    #"{"resultcode":"00","message":"success","response":{"id":"VxApp-ScopedId","nickname":"openapi","name":"홍길동","email":"someone@naver.com"}}"#

  @Test("login sends no scope; the string expires_in is read; the email is never verified")
  func login() async throws {
    let fixture = try DescribedFixture(.naver)
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: DescribedFixture.redirectURI)
    #expect(request.url.query?.contains("scope=") == false)
    #expect(request.url.query?.contains("nonce=") == false)
    let credential = try await fixture.login { _ in
      #"{"access_token":"AAAAN+abc/def==","refresh_token":"nRT","token_type":"bearer","expires_in":"3600"}"#
    }
    #expect(credential.expiresAt == fixture.clock.wallTime.addingTimeInterval(3600))
    #expect(fixture.lastForm(fixture.path("token"))["client_secret"] == "secret-1")
    fixture.stub.on("GET", fixture.path("profile"), reply: .json(Self.profile))
    let identity = try await fixture.provider.fetchIdentity(for: credential)
    #expect(identity.subject == "VxApp-ScopedId")
    #expect(identity.name == "홍길동")
    #expect(identity.emailVerified == false)
    let sent = try #require(fixture.stub.requests.last)
    #expect(sent.headers["Authorization"] == "Bearer AAAAN+abc/def==")
  }

  @Test("an error inside a 200 answer is an error, even next to an access_token")
  func errorInsideSuccess() async throws {
    let fixture = try DescribedFixture(.naver)
    let old = Credential(accessToken: "nAT", refreshToken: "nRT")
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"error":"invalid_request","error_description":"no valid data in session"}"#))
    let error = try #require(await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(error.code == .providerError)
    #expect(error.oauth?.error == "invalid_request")
    #expect(
      fixture.provider.classifyRefreshFailure(error) == .refreshTokenInvalid(.refreshTokenExpired))

    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"error":"invalid_grant","access_token":"looks-fine","expires_in":"3600"}"#))
    let hidden = try #require(await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(hidden.oauth?.error == "invalid_grant")

    // Codes NAVER never documented still sign out; server_error does not.
    fixture.stub.on("POST", fixture.path("token"), reply: .json(#"{"error":"mystery"}"#))
    let other = try #require(await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(
      fixture.provider.classifyRefreshFailure(other)
        == .terminal(.providerRejected(code: "mystery")))
    fixture.stub.on("POST", fixture.path("token"), reply: .json(#"{"error":"server_error"}"#))
    let outage = try #require(await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(fixture.provider.classifyRefreshFailure(outage) == .transient(retryAfter: nil))
  }

  @Test("refresh tokens never rotate: the old one stays")
  func refreshNeverRotates() async throws {
    let fixture = try DescribedFixture(.naver)
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"access_token":"nAT-2","token_type":"bearer","expires_in":"3600"}"#))
    let refreshed = try await fixture.provider.refresh(
      Credential(accessToken: "nAT", refreshToken: "nRT"))
    #expect(refreshed.refreshToken?.revealed == "nRT")
    #expect(refreshed.accessToken.revealed == "nAT-2")
  }

  @Test("expires_in must be whole seconds: a fraction, a sign or an exponent is unreadable")
  func expiryForms() async throws {
    let fixture = try DescribedFixture(.naver)
    for bad in [#""3600.5""#, #""-3600""#, #""1e3""#, "true", #""""#, "0"] {
      fixture.stub.on(
        "POST", fixture.path("token"), reply: .json(#"{"access_token":"a","expires_in":\#(bad)}"#))
      let error = await describedError {
        _ = try await fixture.provider.refresh(Credential(accessToken: "a", refreshToken: "r"))
      }
      #expect(error?.code == .invalidResponse, "\(bad)")
    }
  }

  @Test("revocation refreshes first, then deletes with the live token")
  func revocation() async throws {
    let fixture = try DescribedFixture(.naver)
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"access_token":"nAT-live","token_type":"bearer","expires_in":"3600"}"#))
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"access_token":"nAT-live","result":"success"}"#))
    try await fixture.provider.revoke(Credential(accessToken: "nAT-old", refreshToken: "nRT"))
    let delete = fixture.lastForm(fixture.path("token"))
    #expect(delete["grant_type"] == "delete")
    #expect(delete["access_token"] == "nAT-live")
    #expect(delete["service_provider"] == "NAVER")
    #expect(fixture.stub.requestCount(path: fixture.path("token")) == 2)

    // A refresh token NAVER refuses means the grant is gone already: nothing to delete.
    fixture.stub.on("POST", fixture.path("token"), reply: .json(#"{"error":"invalid_grant"}"#))
    try await fixture.provider.revoke(Credential(accessToken: "nAT", refreshToken: "nRT"))
    #expect(fixture.stub.requestCount(path: fixture.path("token")) == 3)

    // A delete that does not say success is an error.
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"access_token":"nAT-live","token_type":"bearer","expires_in":"3600"}"#))
    fixture.stub.on("POST", fixture.path("token"), reply: .json(#"{"result":"fail"}"#))
    let error = await describedError {
      try await fixture.provider.revoke(Credential(accessToken: "nAT", refreshToken: "nRT"))
    }
    #expect(error != nil)
  }

  @Test("an access token verifies through the profile, and the audience cannot be proven")
  func verifyAccessToken() async throws {
    let fixture = try DescribedFixture(.naver)
    fixture.stub.on("GET", fixture.path("profile"), reply: .json(Self.profile))
    let verified = try await fixture.provider.verify(.accessToken("nAT"))
    #expect(verified.identity.subject == "VxApp-ScopedId")
    #expect(!verified.audience.isProven)

    fixture.stub.on(
      "GET", fixture.path("profile"),
      reply: .json(#"{"resultcode":"024","message":"Authentication failed"}"#, status: 401))
    let dead = await describedError { _ = try await fixture.provider.verify(.accessToken("x")) }
    #expect(dead?.code == .invalidToken)
    fixture.stub.on(
      "GET", fixture.path("profile"), reply: .json(#"{"resultcode":"024","response":{"id":"x"}}"#))
    let envelope = await describedError { _ = try await fixture.provider.verify(.accessToken("x")) }
    #expect(envelope?.code == .providerError)
    let idToken = await describedError {
      _ = try await fixture.provider.verify(.idToken("a.b.c", nonce: nil))
    }
    #expect(idToken?.code == .unsupported)
  }
}
