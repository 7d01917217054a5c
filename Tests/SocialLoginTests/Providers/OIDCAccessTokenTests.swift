import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// `OIDCProvider.verify(.accessToken)` proves that the token was issued to this client
/// (introspection or an RFC 9068 JWT access token), not only whose it is.
@Suite(.timeLimit(.minutes(1)))
struct OIDCAccessTokenTests {
  typealias Stub = OIDCStubProvider

  func verify(_ token: String, on stub: Stub) async throws -> VerifiedIdentity {
    try await stub.provider.verify(.accessToken(Secret(token)))
  }

  @Test func introspectionProvesTheClientAndUserinfoNamesTheUser() async throws {
    let stub = try Stub(introspection: true)
    stub.userinfo()
    stub.stub.on(
      "POST", "/introspect",
      reply: .json(
        #"{"active":true,"client_id":"client-1","sub":"user-1","exp":1700003600,"scope":"openid email","iss":"https://id.example"}"#
      ))
    let verified = try await verify("opaque-token", on: stub)
    #expect(verified.audience == .proven(audience: "client-1"))
    #expect(verified.identity.subject == "user-1")
    #expect(verified.identity.email == "alice@example.test")
    #expect(verified.scopes == ["openid", "email"])
    #expect(verified.expiresAt == Date(timeIntervalSince1970: 1_700_003_600))
    let request = try #require(stub.stub.requests.first { $0.url.path == "/introspect" })
    #expect(request.headers["Authorization"]?.hasPrefix("Basic ") == true)
    let form = OAuth2Fixture.form(request)
    #expect(form["token"] == "opaque-token")
    #expect(form["token_type_hint"] == "access_token")
  }

  @Test func introspectionOfAnotherClientsTokenIsRejected() async throws {
    let stub = try Stub(introspection: true)
    stub.userinfo()
    stub.stub.on(
      "POST", "/introspect", reply: .json(#"{"active":true,"client_id":"other-app","sub":"u"}"#))
    let error = await #expect(throws: AuthError.self) { try await verify("t", on: stub) }
    #expect(error?.code == .invalidToken)
    #expect(error?.message.contains("other-app") == true)
    #expect(stub.stub.requestCount(path: "/userinfo") == 0, "no identity for a foreign token")
  }

  @Test func anInactiveTokenIsRejected() async throws {
    let stub = try Stub(introspection: true)
    stub.stub.on("POST", "/introspect", reply: .json(#"{"active":false}"#))
    let error = await #expect(throws: AuthError.self) { try await verify("t", on: stub) }
    #expect(error?.code == .invalidToken)
  }

  @Test func introspectionAudienceIsCheckedWhenThereIsNoClientID() async throws {
    let ours = try Stub(introspection: true, userinfo: false)
    ours.stub.on(
      "POST", "/introspect",
      reply: .json(#"{"active":true,"aud":["api","client-1"],"sub":"user-9"}"#))
    let verified = try await verify("t", on: ours)
    #expect(verified.audience == .proven(audience: "client-1"))
    #expect(verified.identity.subject == "user-9")

    let theirs = try Stub(introspection: true, userinfo: false)
    theirs.stub.on("POST", "/introspect", reply: .json(#"{"active":true,"aud":"api","sub":"u"}"#))
    let foreign = await #expect(throws: AuthError.self) { try await verify("t", on: theirs) }
    #expect(foreign?.code == .invalidToken)

    let silent = try Stub(introspection: true, userinfo: false)
    silent.stub.on("POST", "/introspect", reply: .json(#"{"active":true,"sub":"u"}"#))
    let unprovable = await #expect(throws: AuthError.self) { try await verify("t", on: silent) }
    #expect(unprovable?.code == .unsupported)
  }

  @Test func introspectionFromAnotherIssuerIsRejected() async throws {
    let stub = try Stub(introspection: true)
    stub.stub.on(
      "POST", "/introspect",
      reply: .json(#"{"active":true,"client_id":"client-1","iss":"https://evil.example"}"#))
    let error = await #expect(throws: AuthError.self) { try await verify("t", on: stub) }
    #expect(error?.code == .invalidToken)
  }

  @Test func aJWTAccessTokenForThisClientIsProvenWithoutIntrospection() async throws {
    let stub = try Stub()
    stub.userinfo()
    let verified = try await verify(Stub.jwt(["scope": "openid"]), on: stub)
    #expect(verified.audience == .proven(audience: "client-1"))
    #expect(verified.identity.subject == "user-1")
    #expect(verified.scopes == ["openid"])
  }

  @Test func aJWTAccessTokenOfAnotherClientIsRejected() async throws {
    let stub = try Stub()
    stub.userinfo()
    let error = await #expect(throws: AuthError.self) {
      try await verify(Stub.jwt(["client_id": "other-app", "aud": "client-1"]), on: stub)
    }
    #expect(error?.code == .invalidToken)
    #expect(error?.message.contains("other-app") == true)
    // Without client_id, the audience decides.
    let resource = try await verify(
      Stub.jwt(["client_id": nil, "aud": ["api", "client-1"]]), on: stub)
    #expect(resource.audience == .proven(audience: "client-1"))
    let foreign = await #expect(throws: AuthError.self) {
      try await verify(Stub.jwt(["client_id": nil, "aud": "api"]), on: stub)
    }
    #expect(foreign?.code == .invalidToken)
    let forged = await #expect(throws: AuthError.self) {
      try await verify(Stub.jwt() + "x", on: stub)
    }
    #expect(forged?.code == .invalidToken)
    let expired = await #expect(throws: AuthError.self) {
      try await verify(Stub.jwt(["exp": 1_699_990_000]), on: stub)
    }
    #expect(expired?.code == .invalidToken)
  }

  @Test func aJWTAccessTokenWhoseUserinfoIsSomeoneElseIsRejected() async throws {
    let stub = try Stub()
    stub.userinfo(subject: "mallory")
    let error = await #expect(throws: AuthError.self) { try await verify(Stub.jwt(), on: stub) }
    #expect(error?.code == .invalidToken)
  }

  @Test func aJWTThatIsNotAnAccessTokenCannotProveItsAudience() async throws {
    // An ID token (typ JWT) is not an access token: RFC 9068 requires typ at+jwt.
    let stub = try Stub()
    stub.userinfo()
    let error = await #expect(throws: AuthError.self) {
      try await verify(Stub.jwt(typ: "JWT"), on: stub)
    }
    #expect(error?.code == .unsupported)
  }

  @Test func anOpaqueTokenWithoutIntrospectionIsUnsupportedAndSaysWhy() async throws {
    let stub = try Stub()
    stub.userinfo()
    let error = await #expect(throws: AuthError.self) { try await verify("opaque", on: stub) }
    #expect(error?.code == .unsupported)
    #expect(error?.message.contains("introspection_endpoint") == true)
    #expect(stub.stub.requestCount(path: "/userinfo") == 0, "userinfo alone proves nothing")

    let publicClient = try Stub(introspection: true, clientSecret: nil)
    let noSecret = await #expect(throws: AuthError.self) {
      try await verify("opaque", on: publicClient)
    }
    #expect(noSecret?.code == .unsupported)
    #expect(noSecret?.message.contains("secret") == true)
  }
}
