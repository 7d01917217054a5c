import Foundation

extension LoginProvider where Self == FacebookProvider {
  /// Facebook Login, for provider lists: `[.facebook(appID: id, appSecret: secret)]`.
  ///
  /// ```swift
  /// let login = try LoginClient(
  ///   providers: [.facebook(appID: "1234567890", appSecret: Secret(secret), scopes: ["email"])],
  ///   store: store)
  /// ```
  ///
  /// - Parameters:
  ///   - appID: The app id.
  ///   - appSecret: The app secret; `nil` for a backend that only verifies Limited Login ID
  ///     tokens.
  ///   - scopes: The permissions; `public_profile` and `email` by default.
  ///   - graphAPIVersion: The Graph API version, ``FacebookGraphAPIVersion/current`` (`v26.0`) by default.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment by
  ///     default; a service or test passes `[:]` (or its own dictionary) so that no process
  ///     variable can move where requests go.
  ///   - transport: How to reach Facebook.
  ///   - clock: The clock.
  /// - Throws: ``AuthError/Code/configuration`` for an empty app id or app secret, a bad version, or a
  ///   `SOCIALLOGIN_EMULATOR_HOST` that is malformed or not a loopback host.
  public static func facebook(
    appID: String,
    appSecret: Secret?,
    scopes: [String] = ["public_profile", "email"],
    graphAPIVersion: String = FacebookGraphAPIVersion.current,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> FacebookProvider {
    FacebookProvider(
      configuration: try FacebookConfiguration(
        appID: appID, appSecret: appSecret, scopes: scopes, graphAPIVersion: graphAPIVersion,
        environment: environment),
      transport: transport, clock: clock)
  }

  /// Facebook Login with a full configuration.
  ///
  /// ```swift
  /// var configuration = try FacebookConfiguration(appID: id, appSecret: secret)
  /// configuration.renewal = .reexchange
  /// let provider: FacebookProvider = .facebook(configuration)
  /// ```
  public static func facebook(
    _ configuration: FacebookConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) -> FacebookProvider {
    FacebookProvider(configuration: configuration, transport: transport, clock: clock)
  }
}
