import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Issue 18: trust is never moved by the environment alone. An emulator host must be a
/// loopback host, every endpoint that carries a secret or a token must be `https` or loopback,
/// and unsigned Firebase tokens need a loopback emulator.
@Suite(.timeLimit(.minutes(2))) struct EnvironmentTrustTests {
  static let remoteHosts = ["evil.example:9199", "10.0.0.7:9199", "127.0.0.1.evil.example:80"]
  static let loopbackHosts = ["127.0.0.1:9199", "127.8.9.10:1", "localhost:9", "[::1]:80"]

  /// Builds each provider configuration that reads `SOCIALLOGIN_EMULATOR_HOST`.
  static func configure(_ environment: [String: String]) -> [(String, () throws -> Void)] {
    [
      (
        "facebook",
        { _ = try FacebookConfiguration(appID: "1", appSecret: "s", environment: environment) }
      ),
      (
        "line",
        { _ = try LINEConfiguration(channelID: "1", channelSecret: "s", environment: environment) }
      ),
      ("x", { _ = try XProvider.Configuration(clientID: "c", environment: environment) }),
      (
        "x oauth1",
        {
          _ = try XProvider.OAuth1Configuration(
            consumerKey: "k", consumerSecret: "s", environment: environment)
        }
      ),
      ("x factory", { _ = try XProvider.twitter(clientID: "c", environment: environment) }),
      (
        "facebook factory",
        { _ = try FacebookProvider.facebook(appID: "1", appSecret: "s", environment: environment) }
      ),
      (
        "line factory",
        { _ = try LINEProvider.line(channelID: "1", channelSecret: "s", environment: environment) }
      ),
      ("flow", { _ = try XProvider.Flow.oauth2(clientID: "c", environment: environment) }),
      ("emulator host", { _ = try EmulatorHost.fromEnvironment(environment) }),
    ]
  }

  @Test(arguments: remoteHosts)
  func aNonLoopbackEmulatorVariableIsAConfigurationErrorNamingIt(value: String) throws {
    for (name, build) in Self.configure([EmulatorHost.environmentVariable: value]) {
      let error = #expect(throws: AuthError.self, "\(name) accepted \(value)") { try build() }
      #expect(error?.code == .configuration, "\(name)")
      #expect(
        error?.message.contains("SOCIALLOGIN_EMULATOR_HOST") == true,
        "\(name): \(error?.message ?? "")")
      #expect(error?.message.contains("loopback") == true, "\(name)")
    }
    #expect(throws: AuthError.self) { try EmulatorHost(parsing: value) }
  }

  @Test(arguments: loopbackHosts)
  func loopbackEmulatorHostsAreAccepted(value: String) throws {
    for (name, build) in Self.configure([EmulatorHost.environmentVariable: value]) {
      #expect(throws: Never.self, "\(name)") { try build() }
    }
    #expect(try EmulatorHost(parsing: value).isLoopback)
  }

  @Test func aMalformedEmulatorVariableNamesTheVariable() {
    let error = #expect(throws: AuthError.self) {
      try FacebookConfiguration(
        appID: "1", appSecret: "s", environment: [EmulatorHost.environmentVariable: "nonsense"])
    }
    #expect(error?.message.contains("SOCIALLOGIN_EMULATOR_HOST") == true)
  }

  @Test func anExplicitNonLoopbackEmulatorHostIsRefused() {
    let remote = EmulatorHost(host: "emulator.internal", port: 9199)
    #expect(!remote.isLoopback)
    let builds: [() throws -> Void] = [
      { _ = try FacebookConfiguration(appID: "1", appSecret: "s", emulatorHost: remote) },
      { _ = try LINEConfiguration(channelID: "1", channelSecret: "s", emulatorHost: remote) },
      { _ = try XProvider.Configuration(clientID: "c", emulatorHost: remote) },
      {
        _ = try XProvider.OAuth1Configuration(
          consumerKey: "k", consumerSecret: "s", emulatorHost: remote)
      },
    ]
    for build in builds {
      let error = #expect(throws: AuthError.self) { try build() }
      #expect(error?.code == .configuration)
    }
  }

  @Test func anEmptyEnvironmentIgnoresTheProcessVariable() throws {
    // `environment: [:]` is how a service or a test keeps the process's variables out.
    let configuration = try FacebookConfiguration(appID: "1", appSecret: "s", environment: [:])
    #expect(configuration.emulatorHost == nil)
    #expect(configuration.accessTokenEndpoint.scheme == "https")
  }

  // MARK: Endpoints

  @Test func endpointOverridesMustBeHTTPSOrLoopback() throws {
    let plain = try #require(URL(string: "http://staging.example/endpoint"))
    let secure = try #require(URL(string: "https://staging.example/endpoint"))
    let local = try #require(URL(string: "http://127.0.0.1:8080/endpoint"))
    var facebook = try FacebookConfiguration(appID: "1", appSecret: "s", environment: [:])
    var line = try LINEConfiguration(channelID: "1", channelSecret: "s", environment: [:])
    var x = try XProvider.Configuration(clientID: "c", environment: [:])
    var oauth1 = try XProvider.OAuth1Configuration(
      consumerKey: "k", consumerSecret: "s", environment: [:])
    var firebase = FirebaseProvider.Configuration(apiKey: "k", projectID: "p", environment: [:])
    let setters: [(String, String, (URL) throws -> Void)] = [
      ("facebook", "access_token", { try facebook.setEndpoint("access_token", to: $0) }),
      ("facebook", "jwks", { try facebook.setEndpoint("jwks", to: $0) }),
      ("line", "token", { try line.setEndpoint("token", to: $0) }),
      ("x", "token", { try x.setEndpoint("token", to: $0) }),
      ("x oauth1", "access_token", { try oauth1.setEndpoint("access_token", to: $0) }),
      ("firebase", "certs", { try firebase.setEndpoint("certs", to: $0) }),
      ("firebase", "securetoken", { try firebase.setEndpoint("securetoken", to: $0) }),
    ]
    for (provider, name, set) in setters {
      let error = #expect(throws: AuthError.self, "\(provider) \(name)") { try set(plain) }
      #expect(error?.code == .configuration)
      #expect(throws: Never.self, "\(provider) \(name)") { try set(secure) }
      #expect(throws: Never.self, "\(provider) \(name)") { try set(local) }
    }
  }

  @Test func aFacebookEmulatorHostSetLaterNeverSendsTheAppSecretInPlainHTTP() async throws {
    let stub = StubTransport()
    var configuration = try FacebookConfiguration(
      appID: "1", appSecret: "fb-app-SECRET-value", environment: [:])
    configuration.emulatorHost = EmulatorHost(host: "10.0.0.7", port: 9199)
    let provider = FacebookProvider(configuration: configuration, transport: stub)
    let error = await #expect(throws: AuthError.self) {
      _ = try await provider.verify(.accessToken("user-token"))
    }
    #expect(error?.code == .configuration)
    #expect(error?.message.contains("fb-app-SECRET-value") == false)
    #expect(error?.message.contains("user-token") == false)
    #expect(stub.requests.isEmpty)
  }

  @Test func aLINEOrXEndpointOverPlainHTTPIsRefusedBeforeSending() async throws {
    let stub = StubTransport()
    var line = try LINEConfiguration(channelID: "1", channelSecret: "line-secret", environment: [:])
    line.emulatorHost = EmulatorHost(host: "emulator.internal", port: 80)
    let credential = Credential(accessToken: "a", refreshToken: "refresh-token-value")
    let lineError = await #expect(throws: AuthError.self) {
      _ = try await LINEProvider(configuration: line, transport: stub).refresh(credential)
    }
    #expect(lineError?.code == .configuration)

    var x = try XProvider.Configuration(clientID: "c", clientSecret: "x-secret", environment: [:])
    x.endpoints.token = try #require(URL(string: "http://api.x.com/2/oauth2/token"))
    let xError = await #expect(throws: AuthError.self) {
      _ = try await XProvider(configuration: x, transport: stub).refresh(credential)
    }
    #expect(xError?.code == .configuration)
    #expect(xError?.message.contains("refresh-token-value") == false)
    #expect(stub.requests.isEmpty)
  }

  // MARK: Firebase

  /// A Firebase provider for the token fixtures' project reading `environment`.
  func firebase(_ environment: [String: String]) -> (FirebaseProvider, StubTransport) {
    let stub = StubTransport()
    let provider = FirebaseProvider(
      configuration: .init(
        apiKey: "k", projectID: FirebaseTokenFixtures.projectID, environment: environment),
      transport: stub, clock: ManualClock())
    return (provider, stub)
  }

  @Test(arguments: remoteHosts)
  func aNonLoopbackFirebaseEmulatorVariableNeverAcceptsUnsignedTokens(value: String) async throws {
    let (provider, stub) = firebase(["FIREBASE_AUTH_EMULATOR_HOST": value])
    let error = await #expect(throws: AuthError.self) {
      _ = try await provider.verifyIDToken(FirebaseTokenFixtures.unsigned)
    }
    #expect(error?.code == .configuration)
    #expect(
      error?.message.contains("FIREBASE_AUTH_EMULATOR_HOST") == true, "\(error?.message ?? "")")
    let signIn = await #expect(throws: AuthError.self) {
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      _ = try await FirebaseAuth(client: client).signIn(with: .facebook(accessToken: "fb"))
    }
    #expect(signIn?.code == .configuration)
    #expect(stub.requests.isEmpty)
  }

  /// Issue 20, item 1: one emulator switch for every provider, Firebase included.
  @Test func firebaseFollowsTheSocialLoginEmulatorVariableLikeEveryProvider() async throws {
    let followed = FirebaseProvider.Configuration(
      apiKey: "k", projectID: "p", environment: ["SOCIALLOGIN_EMULATOR_HOST": "127.0.0.1:9199"])
    #expect(followed.emulatorHost == EmulatorHost(host: "127.0.0.1", port: 9199))
    #expect(followed.usesEmulator)
    let both = FirebaseProvider.Configuration(
      apiKey: "k", projectID: "p",
      environment: [
        "SOCIALLOGIN_EMULATOR_HOST": "127.0.0.1:9199", "FIREBASE_AUTH_EMULATOR_HOST": "[::1]:9099",
      ])
    #expect(both.emulatorHost?.description == "[::1]:9099", "Firebase's own variable wins")
    let (remote, stub) = firebase(["SOCIALLOGIN_EMULATOR_HOST": "emulator.internal:9199"])
    let error = await #expect(throws: AuthError.self) {
      _ = try await remote.verifyIDToken(FirebaseTokenFixtures.unsigned)
    }
    #expect(error?.code == .configuration)
    #expect(error?.message.contains("SOCIALLOGIN_EMULATOR_HOST") == true)
    #expect(stub.requests.isEmpty)
  }

  @Test func unsignedTokensNeedALoopbackFirebaseEmulator() async throws {
    // Issue 34: the variable moves requests, never trust; the flag set in code does.
    var local = FirebaseProvider.Configuration(
      apiKey: "k", projectID: FirebaseTokenFixtures.projectID,
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": "localhost:9099"])
    local.acceptsUnsignedEmulatorTokens = true
    let accepting = FirebaseProvider(
      configuration: local, transport: StubTransport(), clock: ManualClock())
    #expect(try await accepting.verifyIDToken(FirebaseTokenFixtures.unsigned).isUnsigned)
    // An emulator host set afterwards to another machine does not make them acceptable.
    var configuration = FirebaseProvider.Configuration(
      apiKey: "k", projectID: FirebaseTokenFixtures.projectID, environment: [:])
    configuration.acceptsUnsignedEmulatorTokens = true
    configuration.emulatorHost = EmulatorHost(host: "emulator.internal", port: 9099)
    let remote = FirebaseProvider(
      configuration: configuration, transport: StubTransport(), clock: ManualClock())
    let error = await #expect(throws: AuthError.self) {
      _ = try await remote.verifyIDToken(FirebaseTokenFixtures.unsigned)
    }
    #expect(error?.code == .invalidToken)
  }

  @Test func firebaseCertificatesOverPlainHTTPAreNotFetched() async throws {
    var configuration = FirebaseProvider.Configuration(
      apiKey: "k", projectID: FirebaseTokenFixtures.projectID, environment: [:])
    configuration.certificatesURL = try #require(URL(string: "http://certs.example/x509"))
    let stub = StubTransport()
    stub.on("GET", "/x509", repeating: true, reply: .json("{}"))
    let provider = FirebaseProvider(
      configuration: configuration, transport: stub, clock: ManualClock())
    let error = await #expect(throws: AuthError.self) {
      _ = try await provider.verifyIDToken(FirebaseTokenFixtures.good)
    }
    #expect(error?.code == .configuration, "\(String(describing: error))")
    #expect(stub.requests.isEmpty)
  }

  // MARK: The warning

  @Test func aClientWithAnEmulatorLogsOneWarningPerProcess() throws {
    // A port no other test uses: the warning is once per emulator host per process.
    let emulator = EmulatorHost(host: "127.0.0.1", port: 1801)
    let records = Locked<[AuthLogRecord]>([])
    let logger = AuthLogger(minimumLevel: .warning) { record in
      records.withLock { $0.append(record) }
    }
    let provider = try XProvider.twitter(
      configuration: XProvider.Configuration(
        clientID: "c", clientSecret: "x-SECRET-1801", emulatorHost: emulator))
    // A silent client does not use up the warning.
    _ = try LoginClient(providers: [provider], store: InMemorySessionStore())
    _ = try LoginClient(providers: [provider], store: InMemorySessionStore(), logger: logger)
    _ = try LoginClient(providers: [provider], store: InMemorySessionStore(), logger: logger)
    let warnings = records.withLock { $0 }
    #expect(warnings.count == 1, "\(warnings.map(\.message))")
    let warning = try #require(warnings.first)
    #expect(warning.level == .warning)
    #expect(warning.message.contains("127.0.0.1:1801"))
    #expect(warning.metadata["emulator"] == "127.0.0.1:1801")
    #expect(!warning.message.contains("x-SECRET-1801"))

    // Without an emulator, nothing is logged.
    let production = try XProvider.twitter(clientID: "c", environment: [:])
    _ = try LoginClient(providers: [production], store: InMemorySessionStore(), logger: logger)
    #expect(records.withLock { $0.count } == 1)
  }

  // MARK: Unsigned Firebase tokens

  /// Issue 34: an emulator variable left in a production `.env` never makes unsigned ID
  /// tokens acceptable; only the configuration flag, set in code, does.
  @Test(arguments: [
    ["FIREBASE_AUTH_EMULATOR_HOST": "localhost:9099"],
    ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"],
    ["SOCIALLOGIN_EMULATOR_HOST": "127.0.0.1:9199"],
  ])
  func anEmulatorVariableAloneNeverAcceptsUnsignedTokens(environment: [String: String])
    async throws
  {
    let (provider, _) = firebase(environment)
    #expect(provider.configuration.usesEmulator, "the variable still moves the requests")
    let error = await #expect(throws: AuthError.self) {
      _ = try await provider.verifyIDToken(FirebaseTokenFixtures.unsigned)
    }
    #expect(error?.code == .invalidToken)
    #expect(error?.joseError?.reason == .algorithmNotAllowed)
    #expect(error?.message.contains("acceptsUnsignedEmulatorTokens") == true)
  }

  @Test func unsignedTokensNeedTheFlagAndALoopbackEmulator() async throws {
    func verifies(emulator: EmulatorHost?, flag: Bool) async -> Bool {
      var configuration = FirebaseProvider.Configuration(
        apiKey: "k", projectID: FirebaseTokenFixtures.projectID, emulatorHost: emulator,
        environment: [:])
      configuration.acceptsUnsignedEmulatorTokens = flag
      let provider = FirebaseProvider(
        configuration: configuration, transport: StubTransport(), clock: ManualClock())
      return (try? await provider.verifyIDToken(FirebaseTokenFixtures.unsigned)) != nil
    }
    let loopback = EmulatorHost(host: "127.0.0.1", port: 9099)
    #expect(await verifies(emulator: loopback, flag: true))
    #expect(await !verifies(emulator: loopback, flag: false))
    #expect(await !verifies(emulator: nil, flag: true))
  }

  @Test func aClientAcceptingUnsignedTokensLogsAnErrorEveryTime() throws {
    let records = Locked<[AuthLogRecord]>([])
    let logger = AuthLogger(minimumLevel: .error) { record in
      records.withLock { $0.append(record) }
    }
    let accepting = FirebaseProvider.firebase(
      apiKey: "k", projectID: "p", emulatorHost: EmulatorHost(host: "127.0.0.1", port: 9099),
      environment: [:], acceptsUnsignedEmulatorTokens: true)
    _ = try LoginClient(providers: [accepting], store: InMemorySessionStore(), logger: logger)
    _ = try LoginClient(providers: [accepting], store: InMemorySessionStore(), logger: logger)
    let errors = records.withLock { $0 }
    #expect(errors.count == 2, "\(errors.map(\.message))")
    #expect(errors.allSatisfy { $0.level == .error && $0.message.contains("alg none") })
    let refusing = FirebaseProvider.firebase(
      apiKey: "k", projectID: "p", emulatorHost: EmulatorHost(host: "127.0.0.1", port: 9099),
      environment: [:])
    _ = try LoginClient(providers: [refusing], store: InMemorySessionStore(), logger: logger)
    #expect(records.withLock { $0.count } == 2)
  }
}
