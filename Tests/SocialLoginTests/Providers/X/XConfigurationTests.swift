import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Building X providers the way apps and the CLI do: factories, named endpoints, the emulator.
@Suite(.timeLimit(.minutes(1)))
struct XConfigurationTests {
  @Test func factoriesWorkInAProviderListAndXIsTwitter() throws {
    let providers: [any LoginProvider] = [
      try .twitter(clientID: "a"), try .x(clientID: "b", clientSecret: "s"),
    ]
    #expect(providers.allSatisfy { $0.id == .twitter && $0.id == .x })
    #expect(providers[0].capabilities.contains(.rotatesRefreshTokens))
    let legacy: [any LoginProvider] = [
      try .twitter(consumerKey: "k", consumerSecret: "s"),
      .twitter(flow: try .oauth1(consumerKey: "k", consumerSecret: "s")),
    ]
    #expect(legacy.allSatisfy { $0.id == .twitter && $0.capabilities.contains(.oauth1) })
    #expect(legacy.allSatisfy { !$0.capabilities.contains(.refresh) })
  }

  @Test func endpointNamesAreExactlyTheCLIs() {
    #expect(XProvider.Configuration.endpointNames == ["authorize", "token", "revoke", "users_me"])
    #expect(
      XProvider.OAuth1Configuration.endpointNames == [
        "request_token", "authorize", "access_token", "verify_credentials", "invalidate_token",
      ])
  }

  @Test func everyOAuth2EndpointCanBeSetByName() throws {
    var flow = try XProvider.Flow.oauth2(clientID: "c")
    #expect(flow.endpointNames == XProvider.Configuration.endpointNames)
    for name in flow.endpointNames {
      try flow.setEndpoint(name, to: try #require(URL(string: "http://127.0.0.1:9/\(name)")))
    }
    guard case .oauth2(let configuration) = flow else {
      Issue.record("not OAuth 2.0")
      return
    }
    let endpoints = configuration.resolvedEndpoints
    #expect(endpoints.authorize.path == "/authorize")
    #expect(endpoints.token.path == "/token")
    #expect(endpoints.revoke.path == "/revoke")
    #expect(endpoints.usersMe.path == "/users_me")
  }

  @Test func everyOAuth1EndpointCanBeSetByName() throws {
    var flow = try XProvider.Flow.oauth1(consumerKey: "k", consumerSecret: "s")
    #expect(flow.isOAuth1)
    for name in flow.endpointNames {
      try flow.setEndpoint(name, to: try #require(URL(string: "http://127.0.0.1:9/\(name)")))
    }
    guard case .oauth1(let configuration) = flow else {
      Issue.record("not OAuth 1.0a")
      return
    }
    let endpoints = configuration.resolvedEndpoints
    #expect(endpoints.requestToken.path == "/request_token")
    #expect(endpoints.authorize.path == "/authorize")
    #expect(endpoints.accessToken.path == "/access_token")
    #expect(endpoints.verifyCredentials.path == "/verify_credentials")
    #expect(endpoints.invalidateToken.path == "/invalidate_token")
  }

  @Test func anUnknownEndpointNameIsAConfigurationErrorNamingTheValidOnes() throws {
    var oauth2 = try XFixture.configuration()
    let url = try #require(URL(string: "http://127.0.0.1:9/x"))
    let error = #expect(throws: AuthError.self) { try oauth2.setEndpoint("request_token", to: url) }
    #expect(error?.code == .configuration)
    #expect(error?.message.contains("users_me") == true)
    var oauth1 = try XProvider.Flow.oauth1(consumerKey: "k", consumerSecret: "s")
    #expect(throws: AuthError.self) { try oauth1.setEndpoint("users_me", to: url) }
  }

  @Test func theEmulatorMapsEveryProductionEndpointButNotOverrides() throws {
    var configuration = try XProvider.Configuration(
      clientID: "c", environment: [EmulatorHost.environmentVariable: "127.0.0.1:9199"])
    #expect(configuration.emulatorHost == EmulatorHost(host: "127.0.0.1", port: 9199))
    var endpoints = configuration.resolvedEndpoints
    #expect(endpoints.authorize.absoluteString == "http://127.0.0.1:9199/x.com/i/oauth2/authorize")
    #expect(endpoints.token.absoluteString == "http://127.0.0.1:9199/api.x.com/2/oauth2/token")
    #expect(endpoints.revoke.absoluteString == "http://127.0.0.1:9199/api.x.com/2/oauth2/revoke")
    #expect(endpoints.usersMe.absoluteString == "http://127.0.0.1:9199/api.x.com/2/users/me")
    try configuration.setEndpoint(
      "token", to: try #require(URL(string: "https://staging.example/token")))
    endpoints = configuration.resolvedEndpoints
    #expect(endpoints.token.absoluteString == "https://staging.example/token")

    let oauth1 = try XProvider.OAuth1Configuration(
      consumerKey: "k", consumerSecret: "s", emulatorHost: EmulatorHost(host: "::1", port: 80))
    #expect(
      oauth1.resolvedEndpoints.verifyCredentials.absoluteString
        == "http://[::1]:80/api.x.com/1.1/account/verify_credentials.json")
    #expect(
      oauth1.resolvedEndpoints.invalidateToken.absoluteString
        == "http://[::1]:80/api.x.com/1.1/oauth/invalidate_token")
  }

  @Test func theProviderSendsToTheMappedEndpoints() async throws {
    let stub = StubTransport()
    let provider = XProvider(
      configuration: try XProvider.Configuration(
        clientID: "c", emulatorHost: EmulatorHost(host: "127.0.0.1", port: 9199)),
      transport: stub, clock: ManualClock())
    stub.on("GET", "/api.x.com/2/users/me", reply: .json(XFixture.usersMe))
    _ = try await provider.fetchIdentity(for: Credential(accessToken: "at"))
    #expect(
      stub.requests.first?.url.absoluteString
        == "http://127.0.0.1:9199/api.x.com/2/users/me?user.fields=profile_image_url")
  }

  @Test func aMalformedEmulatorVariableIsAnErrorNotASilentProductionLogin() {
    let environment = [EmulatorHost.environmentVariable: "127.0.0.1"]
    #expect(throws: AuthError.self) {
      _ = try XProvider.Configuration(clientID: "c", environment: environment)
    }
    #expect(throws: AuthError.self) {
      _ = try XProvider.OAuth1Configuration(
        consumerKey: "k", consumerSecret: "s", environment: environment)
    }
  }

  @Test func emptyCredentialsAreRejectedAndAnEmptySecretMeansAPublicClient() throws {
    #expect(throws: AuthError.self) { _ = try XProvider.Configuration(clientID: "") }
    #expect(throws: AuthError.self) {
      _ = try XProvider.OAuth1Configuration(consumerKey: "k", consumerSecret: "")
    }
    #expect(try !XFixture.configuration(secret: "").isConfidential)
    #expect(try !XFixture.configuration(secret: nil).isConfidential)
    #expect(try XFixture.configuration().isConfidential)
    #expect(try XFixture.configuration().scopes == ["users.read", "tweet.read", "offline.access"])
  }
}
