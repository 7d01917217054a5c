import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Issue 20, item 6: providers from an environment dictionary, errors naming the variable.
@Suite struct ProviderEnvironmentTests {
  let complete: [String: String] = [
    "SOCIALLOGIN_FACEBOOK_CLIENT_ID": "fb-app", "SOCIALLOGIN_FACEBOOK_CLIENT_SECRET": "fb-secret",
    "SOCIALLOGIN_LINE_CLIENT_ID": "1656000000", "SOCIALLOGIN_LINE_CLIENT_SECRET": "line-secret",
    "SOCIALLOGIN_TWITTER_CLIENT_ID": "x-client",
    "FIREBASE_API_KEY": "api-key", "FIREBASE_PROJECT_ID": "demo-project",
  ]

  @Test func everyProviderIsBuiltFromTheSharedNames() async throws {
    let environment = ProviderEnvironment(complete)
    let facebook = try environment.facebook()
    #expect(facebook.configuration.appID == "fb-app")
    let line = try environment.line()
    #expect(line.configuration.channelID == "1656000000")
    #expect(try xConfiguration(environment.twitter()).clientID == "x-client")
    let firebase = try environment.firebase()
    #expect(firebase.configuration.apiKey == "api-key")
    #expect(firebase.configuration.projectID == "demo-project")
    #expect(firebase.configuration.tenantID == nil)
    #expect(!firebase.configuration.usesEmulator)
  }

  @Test(arguments: [
    ("SOCIALLOGIN_FACEBOOK_CLIENT_ID", ProviderID.facebook),
    ("SOCIALLOGIN_FACEBOOK_CLIENT_SECRET", .facebook),
    ("SOCIALLOGIN_LINE_CLIENT_ID", .line), ("SOCIALLOGIN_LINE_CLIENT_SECRET", .line),
    ("SOCIALLOGIN_TWITTER_CLIENT_ID", .twitter),
    ("FIREBASE_API_KEY", .firebase), ("FIREBASE_PROJECT_ID", .firebase),
  ])
  func aMissingOrEmptyVariableIsAConfigurationErrorNamingIt(name: String, provider: ProviderID)
    throws
  {
    for values in [complete.filter { $0.key != name }, complete.merging([name: ""]) { $1 }] {
      let environment = ProviderEnvironment(values)
      let error = #expect(throws: AuthError.self) {
        switch provider {
        case .facebook: _ = try environment.facebook()
        case .line: _ = try environment.line()
        case .twitter: _ = try environment.twitter()
        default: _ = try environment.firebase()
        }
      }
      #expect(error?.code == .configuration)
      #expect(error?.provider == provider)
      #expect(error?.message.contains(name) == true, "\(error?.message ?? "")")
    }
  }

  func xConfiguration(_ provider: XProvider) throws -> XProvider.Configuration {
    guard case .oauth2(let configuration) = provider.flow else {
      throw AuthError(.configuration, "not OAuth 2.0")
    }
    return configuration
  }

  @Test func theSecretOfAPublicXClientIsOptional() throws {
    let withSecret = ProviderEnvironment(
      complete.merging(["SOCIALLOGIN_TWITTER_CLIENT_SECRET": "x-secret"]) { $1 })
    #expect(try xConfiguration(withSecret.twitter()).clientSecret == Secret("x-secret"))
    let publicClient = try xConfiguration(ProviderEnvironment(complete).twitter())
    #expect(publicClient.clientSecret == nil)
    #expect(publicClient.clientID == "x-client")
  }

  @Test func theEmulatorVariablesInTheSameDictionaryMoveEveryProvider() throws {
    let environment = ProviderEnvironment(
      complete.merging(["SOCIALLOGIN_EMULATOR_HOST": "127.0.0.1:9199"]) { $1 })
    let host = EmulatorHost(host: "127.0.0.1", port: 9199)
    #expect(try environment.facebook().configuration.emulatorHost == host)
    #expect(try environment.line().configuration.emulatorHost == host)
    #expect(try xConfiguration(environment.twitter()).emulatorHost == host)
    #expect(try environment.firebase().configuration.emulatorHost == host)
  }

  @Test func theNamesAreTheOnesTheCLIDocuments() {
    #expect(ProviderEnvironment.clientIDVariable(for: .line) == "SOCIALLOGIN_LINE_CLIENT_ID")
    #expect(
      ProviderEnvironment.clientSecretVariable(for: .twitter)
        == "SOCIALLOGIN_TWITTER_CLIENT_SECRET")
  }
}
