import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct OAuth2RevocationTests {
  @Test func sendsTokenHintAndClientAuthentication() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/revoke", reply: .json(#"{"revoked":true}"#))
    try await fixture.client.revoke("rt-SECRET", hint: .refreshToken)
    let request = try #require(fixture.stub.requests.last)
    #expect(request.url.absoluteString == "https://auth.test/revoke")
    #expect(request.headers["Authorization"]?.hasPrefix("Basic ") == true)
    #expect(
      OAuth2Fixture.fields(of: request).map { "\($0.0)=\($0.1)" } == [
        "token=rt-SECRET", "token_type_hint=refresh_token",
      ])
  }

  @Test func publicClientSendsClientIDAndNoHintWhenUnknown() async throws {
    let fixture = try OAuth2Fixture(clientSecret: nil, authentication: .none)
    fixture.stub.on("POST", "/revoke", reply: .status(200))
    try await fixture.client.revoke("at")
    #expect(
      OAuth2Fixture.fields(of: fixture.stub.requests.last).map(\.0) == ["token", "client_id"])
  }

  @Test func unknownTokenAnswered200IsSuccess() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/revoke", reply: .status(200))
    try await fixture.client.revoke("never-issued", hint: .accessToken)
    #expect(fixture.stub.requestCount(path: "/revoke") == 1)
  }

  @Test func unsupportedTokenTypeIsTyped() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on(
      "POST", "/revoke", reply: .json(#"{"error":"unsupported_token_type"}"#, status: 400))
    let error = await authError { try await fixture.client.revoke("at-SECRET", hint: .accessToken) }
    #expect(error?.code == .unsupportedTokenType)
    #expect(error?.oauth?.error == "unsupported_token_type")
    #expect(error?.httpStatus == 400)
    #expect(error?.isTransient == false)
    expectNoSecrets(error, ["at-SECRET", "client-SECRET-value"])
  }

  @Test func unavailableWithRetryAfterIsTransient() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/revoke", reply: .status(503, headers: ["Retry-After": "120"]))
    let error = await authError { try await fixture.client.revoke("at") }
    #expect(error?.code == .serverUnavailable)
    #expect(error?.isTransient == true)
    #expect(error?.retryAfter == Date(timeIntervalSince1970: 1_700_000_120))
  }

  @Test func otherErrorsAreProviderErrors() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/revoke", reply: .json(#"{"error":"invalid_client"}"#, status: 401))
    let error = await authError { try await fixture.client.revoke("at") }
    #expect(error?.code == .providerError)
    #expect(error?.oauth?.error == "invalid_client")
  }

  @Test func noEndpointIsUnsupported() async throws {
    let fixture = try OAuth2Fixture { $0.revocationEndpoint = nil }
    let error = await authError { try await fixture.client.revoke("at") }
    #expect(error?.code == .unsupported)
    #expect(fixture.stub.requests.isEmpty)
  }
}
