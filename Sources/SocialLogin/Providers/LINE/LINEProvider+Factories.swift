import Foundation

extension LoginProvider where Self == LINEProvider {
  /// LINE Login, for provider lists: `[.line(channelID: id, channelSecret: secret)]`.
  ///
  /// ```swift
  /// let login = try LoginClient(
  ///   providers: [.line(channelID: "1656000000", channelSecret: Secret(secret))], store: store)
  /// ```
  ///
  /// - Parameters:
  ///   - channelID: The channel id.
  ///   - channelSecret: The channel secret; `nil` for a backend that only verifies access
  ///     tokens and ES256 ID tokens.
  ///   - scopes: The scopes; `profile` and `openid` by default.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment by
  ///     default; a service or test passes `[:]` (or its own dictionary) so that no process
  ///     variable can move where requests go.
  ///   - transport: How to reach LINE.
  ///   - clock: The clock.
  /// - Throws: ``AuthError/Code/configuration`` for an empty channel id or channel secret, or a
  ///   `SOCIALLOGIN_EMULATOR_HOST` that is malformed or not a loopback host.
  public static func line(
    channelID: String,
    channelSecret: Secret?,
    scopes: [String] = ["profile", "openid"],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> LINEProvider {
    LINEProvider(
      configuration: try LINEConfiguration(
        channelID: channelID, channelSecret: channelSecret, scopes: scopes,
        environment: environment),
      transport: transport, clock: clock)
  }

  /// LINE Login with a full configuration.
  ///
  /// ```swift
  /// var configuration = try LINEConfiguration(channelID: id, channelSecret: secret)
  /// configuration.botPrompt = .normal
  /// let provider: LINEProvider = .line(configuration)
  /// ```
  public static func line(
    _ configuration: LINEConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) -> LINEProvider {
    LINEProvider(configuration: configuration, transport: transport, clock: clock)
  }
}
