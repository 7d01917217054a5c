import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite("Described provider: Yahoo! JAPAN")
struct DescribedYahooJapanTests {
  static let issuer = "https://auth.login.yahoo.co.jp/yconnect/v2"

  @Test("login authenticates with Basic, checks the nonce, and reads UserInfo")
  func login() async throws {
    let fixture = try DescribedFixture(.yahooJapan)
    let credential = try await fixture.login { nonce in
      let token = DescribedFixture.idToken(
        issuer: Self.issuer,
        ["sub": "YJSUB", "aud": ["client-1"], "nonce": nonce.map(JSONValue.string)])
      return
        #"{"access_token":"yjAT","token_type":"Bearer","expires_in":3600,"refresh_token":"yjRT","id_token":"\#(token)"}"#
    }
    let sent = try #require(fixture.stub.requests.last { $0.url.path == fixture.path("token") })
    #expect(sent.headers["Authorization"]?.hasPrefix("Basic ") == true)
    #expect(fixture.lastForm(fixture.path("token"))["client_secret"] == nil)
    #expect(credential.tokenType == "bearer")
    fixture.stub.on(
      "GET", fixture.path("userinfo"),
      reply: .json(
        #"{"sub":"YJSUB","nickname":"taro","email":"taro@example.jp","email_verified":true}"#))
    let identity = try await fixture.provider.fetchIdentity(for: credential)
    #expect(identity.subject == "YJSUB")
    #expect(identity.name == "taro")
    #expect(identity.emailVerified == true)
  }

  @Test("a login whose ID token lacks the nonce, has the bare host as issuer, or is missing fails")
  func loginRefusals() async throws {
    let fixture = try DescribedFixture(.yahooJapan)
    let noNonce = await describedError {
      _ = try await fixture.login { _ in
        let token = DescribedFixture.idToken(issuer: Self.issuer)
        return #"{"access_token":"a","id_token":"\#(token)"}"#
      }
    }
    #expect(noNonce?.code == .invalidToken)
    let bareHost = await describedError {
      _ = try await fixture.login { nonce in
        let token = DescribedFixture.idToken(
          issuer: "https://auth.login.yahoo.co.jp", ["nonce": nonce.map(JSONValue.string)])
        return #"{"access_token":"a","id_token":"\#(token)"}"#
      }
    }
    #expect(bareHost?.code == .invalidToken)
    let missing = await describedError {
      _ = try await fixture.login { _ in #"{"access_token":"a"}"# }
    }
    #expect(missing?.code == .invalidResponse)
  }

  @Test("an ID token issued more than 600 seconds ago is refused")
  func maximumAge() async throws {
    let fixture = try DescribedFixture(.yahooJapan)
    let old = DescribedFixture.idToken(
      issuer: Self.issuer, ["iat": 1_699_999_000, "exp": 1_700_003_600, "nonce": "n"])
    let error = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(old), nonce: "n"))
    }
    #expect(error?.code == .invalidToken)
    let fresh = DescribedFixture.idToken(issuer: Self.issuer, ["nonce": "n"])
    let verified = try await fixture.provider.verify(.idToken(Secret(fresh), nonce: "n"))
    #expect(verified.audience == .proven(audience: DescribedFixture.clientID))
  }

  @Test("refresh tokens never rotate, and there is nothing to revoke")
  func refreshAndRevoke() async throws {
    let fixture = try DescribedFixture(.yahooJapan)
    fixture.stub.on(
      "POST", fixture.path("token"), reply: .json(#"{"access_token":"yjAT-2","expires_in":3600}"#))
    let refreshed = try await fixture.provider.refresh(
      Credential(accessToken: "yjAT", refreshToken: "yjRT"))
    #expect(refreshed.refreshToken?.revealed == "yjRT")
    let count = fixture.stub.requests.count
    try await fixture.provider.revoke(refreshed)
    #expect(fixture.stub.requests.count == count)
    #expect(!fixture.provider.capabilities.contains(.revocation))
    fixture.stub.on(
      "POST", fixture.path("token"), reply: .json(#"{"error":"invalid_request"}"#, status: 400))
    let error = try #require(
      await describedError { _ = try await fixture.provider.refresh(refreshed) })
    #expect(error.code == .configuration)
  }
}
