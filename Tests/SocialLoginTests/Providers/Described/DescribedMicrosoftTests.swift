import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite("Described provider: Microsoft")
struct DescribedMicrosoftTests {
  static let tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
  static func issuer(_ tenant: String) -> String {
    "https://login.microsoftonline.com/\(tenant)/v2.0"
  }

  @Test("login on 'common': the issuer carries the token's own tid; identity from the ID token")
  func login() async throws {
    let fixture = try DescribedFixture(.microsoft, secret: nil, parameters: ["tenant": "common"])
    #expect(fixture.path("token") == "/common/oauth2/v2.0/token")
    let credential = try await fixture.login { nonce in
      let token = DescribedFixture.idToken(
        issuer: Self.issuer(Self.tenant),
        [
          "tid": .string(Self.tenant), "nonce": nonce.map(JSONValue.string), "name": "Ada",
          "email": "ada@example.com",
        ])
      return
        #"{"token_type":"Bearer","scope":"openid profile email offline_access","expires_in":3599,"access_token":"eyJ.at","refresh_token":"mRT","id_token":"\#(token)"}"#
    }
    let identity = try await fixture.provider.fetchIdentity(for: credential)
    #expect(identity.subject == "user-1")
    #expect(identity.name == "Ada")
    #expect(identity.emailVerified == false)
  }

  @Test("an issuer whose tenant is not the token's tid is refused")
  func tenantIDMustMatch() async throws {
    let fixture = try DescribedFixture(.microsoft, parameters: ["tenant": "common"])
    let forged = DescribedFixture.idToken(
      issuer: Self.issuer("attacker-tenant"), ["tid": .string(Self.tenant)])
    let error = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(forged), nonce: nil))
    }
    #expect(error?.code == .invalidToken)
    let noTenant = DescribedFixture.idToken(issuer: Self.issuer(Self.tenant))
    let missing = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(noTenant), nonce: nil))
    }
    #expect(missing?.code == .invalidToken)
    let good = DescribedFixture.idToken(
      issuer: Self.issuer(Self.tenant), ["tid": .string(Self.tenant)])
    let verified = try await fixture.provider.verify(.idToken(Secret(good), nonce: nil))
    #expect(verified.identity.subject == "user-1")
  }

  @Test("a tenant id setting admits only that tenant's tokens")
  func singleTenant() async throws {
    let fixture = try DescribedFixture(.microsoft, parameters: ["tenant": "contoso-id"])
    let other = DescribedFixture.idToken(
      issuer: Self.issuer(Self.tenant), ["tid": .string(Self.tenant)])
    let error = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(other), nonce: nil))
    }
    #expect(error?.code == .invalidToken)
    let own = DescribedFixture.idToken(issuer: Self.issuer("contoso-id"), ["tid": "contoso-id"])
    _ = try await fixture.provider.verify(.idToken(Secret(own), nonce: nil))
  }

  @Test("refresh tokens rotate; a refreshed ID token naming another user is a mismatch")
  func refresh() async throws {
    let fixture = try DescribedFixture(.microsoft, parameters: ["tenant": "common"])
    let first = DescribedFixture.idToken(
      issuer: Self.issuer(Self.tenant), ["tid": .string(Self.tenant)])
    let old = Credential(accessToken: "at", refreshToken: "mRT-1", idToken: Secret(first))
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"access_token":"at-2","refresh_token":"mRT-2","expires_in":3599}"#))
    let outcome = try await fixture.provider.spendRefreshToken(old)
    #expect(outcome.problem == nil)
    #expect(outcome.credential.refreshToken?.revealed == "mRT-2")
    #expect(outcome.credential.idToken?.revealed == first)

    let another = DescribedFixture.idToken(
      issuer: Self.issuer(Self.tenant), ["tid": .string(Self.tenant), "sub": "user-2"])
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"access_token":"at-3","refresh_token":"mRT-3","id_token":"\#(another)"}"#))
    let mismatch = try await fixture.provider.spendRefreshToken(outcome.credential)
    guard case .identityMismatch? = mismatch.problem else {
      Issue.record("expected an identity mismatch")
      return
    }
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(
        #"{"error":"invalid_grant","error_description":"AADSTS70008: expired","error_codes":[70008]}"#,
        status: 400))
    let error = try #require(await describedError { _ = try await fixture.provider.refresh(old) })
    #expect(
      fixture.provider.classifyRefreshFailure(error) == .refreshTokenInvalid(.refreshTokenExpired))
    #expect(error.providerCode == "70008")
  }

  @Test("device login: authorization_declined is a denial, bad_verification_code ends it")
  func deviceLogin() async throws {
    let fixture = try DescribedFixture(.microsoft, secret: nil, parameters: ["tenant": "common"])
    fixture.stub.on(
      "POST", fixture.path("device"),
      reply: .json(
        #"{"device_code":"dc","user_code":"FNLQ8DWZC","verification_uri":"https://microsoft.com/devicelogin","expires_in":900,"interval":5,"message":"To sign in, use a web browser"}"#
      ))
    let authorization = try await fixture.provider.startDeviceLogin(scopes: ["openid"])
    #expect(authorization.expiresIn == 900)
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"error":"authorization_declined","error_codes":[70000]}"#, status: 400))
    let declined = await describedError {
      _ = try await fixture.provider.pollDeviceLogin(authorization)
    }
    #expect(declined?.code == .accessDenied)
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"error":"bad_verification_code"}"#, status: 400))
    let bad = await describedError { _ = try await fixture.provider.pollDeviceLogin(authorization) }
    #expect(bad?.code == .providerError)
    fixture.stub.on(
      "POST", fixture.path("token"),
      reply: .json(#"{"error":"authorization_pending","error_codes":[70016]}"#, status: 400))
    guard case .pending = try await fixture.provider.pollDeviceLogin(authorization) else {
      Issue.record("expected pending")
      return
    }
  }

  @Test("there is no revocation: logout asks nothing of Microsoft and throws nothing")
  func noRevocation() async throws {
    let fixture = try DescribedFixture(.microsoft, parameters: ["tenant": "common"])
    try await fixture.provider.revoke(Credential(accessToken: "at", refreshToken: "rt"))
    #expect(fixture.stub.requests.isEmpty)
  }
}
