import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// Issue 20 item 2: `LoginClient.validateConfiguration()` against the emulator, and the app's
/// own wrong credentials reported as configuration errors naming the setting.
@Suite("Emulator: configuration checks", .timeLimit(.minutes(3)))
struct EmulatorConfigurationCheckTests {
  static func providers(
    _ emulator: ProviderEmulator, facebookSecret: String = EmulatorApps.facebookAppSecret,
    lineSecret: String = EmulatorApps.lineChannelSecret,
    xSecret: String = EmulatorApps.twitterClientSecret
  ) throws -> [any LoginProvider] {
    [
      FacebookProvider(
        configuration: try .init(
          appID: EmulatorApps.facebookAppID, appSecret: Secret(facebookSecret),
          emulatorHost: emulator.host, environment: [:]),
        transport: EmulatedProviders.transport),
      LINEProvider(
        configuration: try .init(
          channelID: EmulatorApps.lineChannelID, channelSecret: Secret(lineSecret),
          emulatorHost: emulator.host, environment: [:]),
        transport: EmulatedProviders.transport),
      XProvider(
        configuration: try .init(
          clientID: EmulatorApps.twitterClientID, clientSecret: Secret(xSecret),
          emulatorHost: emulator.host, environment: [:]),
        transport: EmulatedProviders.transport),
      .firebase(
        apiKey: EmulatorApps.firebaseAPIKey, projectID: EmulatorApps.firebaseProjectID,
        emulatorHost: emulator.host, transport: EmulatedProviders.transport),
    ]
  }

  @Test func theRightCredentialsAreAccepted() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try LoginClient(
        providers: try Self.providers(emulator), store: InMemorySessionStore())
      let report = try await client.validateConfiguration()
      #expect(report.accepted == [.facebook, .line, .twitter])
      #expect(report.rejected.isEmpty)
      #expect(report.unreachable.isEmpty)
      // The emulator accepts any Firebase API key: the report says so instead of "ok".
      guard case .notCheckable(let reason)? = report.checks[.firebase] else {
        Issue.record("the Firebase key was reported checked: \(String(describing: report.checks))")
        return
      }
      #expect(reason.contains("could not be checked"))
      #expect(emulator.requests(to: .line, endpoint: "channel_token").map(\.status) == [200])
    }
  }

  @Test func eachWrongSecretIsAConfigurationErrorNamingItsSetting() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try LoginClient(
        providers: try Self.providers(
          emulator, facebookSecret: "wrong-fb", lineSecret: "wrong-line", xSecret: "wrong-x"),
        store: InMemorySessionStore())
      let report = await client.configurationReport()
      let rejected = report.rejected
      #expect(rejected.map(\.provider) == [.facebook, .line, .twitter])
      #expect(rejected.allSatisfy { $0.code == .configuration && !$0.isTransient })
      let messages = rejected.map(\.message)
      try #require(messages.count == 3, "\(messages)")
      #expect(messages[0].contains("FacebookConfiguration.appSecret"))
      #expect(messages[1].contains("LINEConfiguration.channelSecret"))
      #expect(messages[2].contains("XProvider.Configuration.clientSecret"))
      for message in messages {
        for secret in ["wrong-fb", "wrong-line", "wrong-x"] { #expect(!message.contains(secret)) }
      }
      do {
        try await client.validateConfiguration()
        Issue.record("wrong secrets were accepted")
      } catch let error as AuthError {
        #expect(error.code == .configuration)
        #expect(error.message.contains("3 providers"))
        #expect(error.message.contains("FacebookConfiguration.appSecret"))
      }
    }
  }

  @Test func aWrongFacebookSecretIsNotTheUsersBadToken() async throws {
    try await ProviderEmulator.run { emulator in
      let good = try EmulatedProviders.facebook(emulator, clock: SystemAuthClock())
      let client = try LoginClient(providers: [good], store: InMemorySessionStore())
      let session = try await client.login(.facebook, using: emulator.headlessAgent())
      let token = try #require(await session.credential).accessToken
      let misconfigured = FacebookProvider(
        configuration: try .init(
          appID: EmulatorApps.facebookAppID, appSecret: "not-the-app-secret",
          emulatorHost: emulator.host, environment: [:]))
      do {
        _ = try await misconfigured.verify(.accessToken(token))
        Issue.record("a wrong app secret verified a token")
      } catch let error as AuthError {
        #expect(error.code == .configuration)
        #expect(error.provider == .facebook)
        #expect(error.message.contains("FacebookConfiguration.appSecret"))
        #expect(!error.message.contains("not-the-app-secret"))
        #expect(!error.isTransient)
        #expect(error.signOutReason == nil)
        guard case .transient = misconfigured.classifyFailure(error) else {
          Issue.record("a configuration error would sign the user out")
          return
        }
      }
      #expect(try await good.verify(.accessToken(token)).identity.subject.isEmpty == false)
    }
  }

  /// Issue 33: a wrong Firebase API key passed the check against the emulator, which accepts
  /// any key. The check now says the key could not be checked; the project id still is.
  @Test func aFirebaseKeyIsNotCheckableAgainstAnEmulator() async throws {
    try await ProviderEmulator.run { emulator in
      let wrongKey: FirebaseProvider = .firebase(
        apiKey: "AIza-not-this-projects-key", projectID: EmulatorApps.firebaseProjectID,
        emulatorHost: emulator.host, transport: EmulatedProviders.transport)
      guard case .notCheckable(let reason) = try await wrongKey.validateConfiguration() else {
        Issue.record("a key the emulator cannot judge was reported as accepted")
        return
      }
      #expect(reason.contains("FirebaseProvider.Configuration.apiKey"))
      #expect(!reason.contains("AIza-not-this-projects-key"))
      let wrongProject: FirebaseProvider = .firebase(
        apiKey: EmulatorApps.firebaseAPIKey, projectID: "another-project",
        emulatorHost: emulator.host, transport: EmulatedProviders.transport)
      let error = await #expect(throws: AuthError.self) {
        _ = try await wrongProject.validateConfiguration()
      }
      #expect(error?.code == .configuration)
      #expect(error?.message.contains("FirebaseProvider.Configuration.projectID") == true)
    }
  }

  @Test func aPublicXClientCannotBeChecked() async throws {
    try await ProviderEmulator.run { emulator in
      let x = XProvider(
        configuration: try .init(
          clientID: EmulatorApps.twitterPublicClientID, emulatorHost: emulator.host,
          environment: [:]))
      guard case .notCheckable = try await x.validateConfiguration() else {
        Issue.record("a public client was checked")
        return
      }
    }
  }
}
