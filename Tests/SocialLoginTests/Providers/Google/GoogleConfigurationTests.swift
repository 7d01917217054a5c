import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite("Google: configuration, authorization request, refresh rules")
struct GoogleConfigurationTests {
  static func configuration() throws -> GoogleConfiguration {
    try GoogleConfiguration(
      clientID: "web.apps.googleusercontent.com", clientSecret: Secret("s"), environment: [:])
  }

  @Test func productionEndpointsAreGooglesAndOverridableByName() throws {
    var configuration = try Self.configuration()
    #expect(
      configuration.authorizeEndpoint.absoluteString
        == "https://accounts.google.com/o/oauth2/v2/auth")
    #expect(configuration.tokenEndpoint.absoluteString == "https://oauth2.googleapis.com/token")
    #expect(configuration.revokeEndpoint.absoluteString == "https://oauth2.googleapis.com/revoke")
    #expect(
      configuration.keysEndpoint.absoluteString == "https://www.googleapis.com/oauth2/v3/certs")
    #expect(
      configuration.userinfoEndpoint.absoluteString
        == "https://openidconnect.googleapis.com/v1/userinfo")
    try configuration.setEndpoint("keys", to: URL(string: "http://127.0.0.1:7/certs")!)
    #expect(configuration.keysEndpoint.absoluteString == "http://127.0.0.1:7/certs")
    #expect(throws: AuthError.self) {
      try configuration.setEndpoint("jwks", to: URL(string: "https://keys.test/")!)
    }
    #expect(throws: AuthError.self) {
      try configuration.setEndpoint("token", to: URL(string: "http://token.test/")!)
    }
  }

  @Test func theEmulatorMapsEveryDefaultFromTheEnvironment() throws {
    let configuration = try GoogleConfiguration(
      clientID: "c", environment: ["SOCIALLOGIN_EMULATOR_HOST": "127.0.0.1:9199"])
    #expect(
      configuration.tokenEndpoint.absoluteString
        == "http://127.0.0.1:9199/oauth2.googleapis.com/token")
    #expect(
      configuration.keysEndpoint.absoluteString
        == "http://127.0.0.1:9199/www.googleapis.com/oauth2/v3/certs")
    #expect(throws: AuthError.self) {
      _ = try GoogleConfiguration(
        clientID: "c", environment: ["SOCIALLOGIN_EMULATOR_HOST": "10.0.0.1:9199"])
    }
  }

  @Test func emptyClientIDOrSecretIsAConfigurationError() {
    #expect(throws: AuthError.self) { _ = try GoogleConfiguration(clientID: "", environment: [:]) }
    let error = #expect(throws: AuthError.self) {
      _ = try GoogleConfiguration(clientID: "c", clientSecret: Secret(""), environment: [:])
    }
    #expect(error?.code == .configuration)
  }

  @Test func theAuthorizationRequestAsksForOfflineAccessAndHintsTheDomain() async throws {
    var configuration = try Self.configuration()
    configuration.hostedDomains = ["example.com"]
    configuration.loginHint = "ann@example.com"
    let provider = GoogleProvider(configuration: configuration, transport: StubTransport())
    let request = try await provider.makeAuthorizationRequest(
      redirectURI: "http://127.0.0.1:8080/callback")
    let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
    #expect(request.url.host == "accounts.google.com")
    #expect(value("access_type") == "offline")
    #expect(value("prompt") == "consent")
    #expect(value("hd") == "example.com")
    #expect(value("login_hint") == "ann@example.com")
    #expect(value("scope")?.replacingOccurrences(of: "+", with: " ") == "openid email profile")
    #expect(value("code_challenge_method") == "S256")
    #expect(value("nonce") != nil)
  }

  @Test func onlyInvalidGrantSignsOut() throws {
    let provider = GoogleProvider(configuration: try Self.configuration())
    func oauth(_ code: String, status: Int = 400) -> AuthError {
      AuthError(
        .providerError, "refresh failed", provider: .google, httpStatus: status,
        oauth: .init(error: code, errorDescription: "Token has been expired or revoked."))
    }
    #expect(
      provider.classifyRefreshFailure(oauth("invalid_grant"))
        == .refreshTokenInvalid(.refreshTokenRevoked))
    for code in ["invalid_client", "unauthorized_client", "invalid_request", "invalid_scope"] {
      guard case .transient = provider.classifyRefreshFailure(oauth(code)) else {
        Issue.record("\(code) must degrade, not sign out")
        continue
      }
    }
    let html = AuthError(
      .invalidResponse, "HTML", provider: .google, httpStatus: 502, responseBodySize: 120)
    guard case .transient = provider.classifyRefreshFailure(html) else {
      Issue.record("an HTML page must degrade")
      return
    }
    let empty = AuthError(
      .invalidResponse, "empty", provider: .google, httpStatus: 400, responseBodySize: 0)
    guard case .transient = provider.classifyRefreshFailure(empty) else {
      Issue.record("an empty 400 must degrade")
      return
    }
  }

  @Test func claimsPolicyAcceptsBothIssuerSpellingsAndTheAppsAsAuthorizedParty() throws {
    var policy = JWTClaimsPolicy(
      issuer: "https://accounts.google.com", audience: "web", requiredClaims: ["iss", "aud"])
    policy.requiresAuthorizedPartyForMultipleAudiences = true
    policy.rejectsUntrustedAudiences = true
    let mobile: JSONValue = ["iss": "accounts.google.com", "aud": "web", "azp": "android"]
    #expect(throws: AuthError.self) { try policy.check(mobile, algorithm: .rs256, now: 0) }
    policy.alternativeIssuers = ["accounts.google.com"]
    let azp = #expect(throws: AuthError.self) {
      try policy.check(mobile, algorithm: .rs256, now: 0)
    }
    #expect(azp?.joseError?.reason == .authorizedPartyMismatch)
    policy.alternativeAudiences = ["android", "ios"]
    try policy.check(mobile, algorithm: .rs256, now: 0)
    try policy.check(
      ["iss": "https://accounts.google.com", "aud": "ios", "azp": "ios"], algorithm: .rs256,
      now: 0)
    let other = #expect(throws: AuthError.self) {
      try policy.check(
        ["iss": "accounts.google.com", "aud": "web", "azp": "evil"], algorithm: .rs256, now: 0)
    }
    #expect(other?.joseError?.reason == .authorizedPartyMismatch)
    let issuer = #expect(throws: AuthError.self) {
      try policy.check(
        ["iss": "https://evil.example", "aud": "web"], algorithm: .rs256, now: 0)
    }
    #expect(issuer?.joseError?.reason == .issuerMismatch)
  }
}
