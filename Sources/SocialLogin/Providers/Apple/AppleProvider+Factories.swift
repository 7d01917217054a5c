import Foundation

extension LoginProvider where Self == AppleProvider {
  /// Sign in with Apple, for provider lists.
  ///
  /// ```swift
  /// let login = try LoginClient(
  ///   providers: [
  ///     .apple(
  ///       clientIDs: ["com.example.web", "com.example.app"], teamID: "ABCDE12345",
  ///       keyID: "XYZ9876543", privateKeyPEM: Secret(p8Text))
  ///   ],
  ///   store: store)
  /// ```
  ///
  /// - Parameters:
  ///   - clientIDs: The accepted client ids, the web Services ID first.
  ///   - teamID: The Team ID.
  ///   - keyID: The `.p8` key's id.
  ///   - privateKeyPEM: The `.p8` file's text; `nil` to verify identity tokens only.
  ///   - scopes: `name` and `email` by default.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read; `[:]` so that no process
  ///     variable can move where requests go.
  ///   - transport: How to reach Apple.
  ///   - clock: The clock.
  /// - Throws: ``AuthError/Code/configuration`` as ``AppleConfiguration/init(clientIDs:teamID:keyID:privateKeyPEM:scopes:emulatorHost:environment:)``.
  public static func apple(
    clientIDs: [String],
    teamID: String,
    keyID: String,
    privateKeyPEM: Secret?,
    scopes: [String] = ["name", "email"],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> AppleProvider {
    AppleProvider(
      configuration: try AppleConfiguration(
        clientIDs: clientIDs, teamID: teamID, keyID: keyID, privateKeyPEM: privateKeyPEM,
        scopes: scopes, environment: environment),
      transport: transport, clock: clock)
  }

  /// Sign in with Apple with a full configuration.
  ///
  /// ```swift
  /// var configuration = try AppleConfiguration(
  ///   clientIDs: ["com.example.web"], teamID: team, keyID: kid, privateKeyPEM: pem)
  /// configuration.automaticRefreshInterval = .seconds(7 * 86_400)
  /// let provider: AppleProvider = .apple(configuration)
  /// ```
  public static func apple(
    _ configuration: AppleConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) -> AppleProvider {
    AppleProvider(configuration: configuration, transport: transport, clock: clock)
  }
}
