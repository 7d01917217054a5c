import Foundation

extension LoginProvider where Self == GoogleProvider {
  /// Google sign-in, for provider lists: `[.google(clientID: id, clientSecret: secret)]`.
  ///
  /// ```swift
  /// let login = try LoginClient(
  ///   providers: [.google(clientID: "1234-web.apps.googleusercontent.com",
  ///                       clientSecret: Secret(secret))],
  ///   store: store)
  /// ```
  ///
  /// - Parameters:
  ///   - clientID: The server's OAuth client id ("Web application").
  ///   - clientSecret: Its secret; `nil` for a backend that only verifies ID tokens.
  ///   - hostedDomains: Workspace domains whose accounts may sign in; empty for every account.
  ///   - appClientIDs: The client ids of the service's Android and iOS apps, whose ID tokens
  ///     ``GoogleProvider/verify(_:)`` accepts.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment by
  ///     default; pass `[:]` so that no process variable can move where requests go.
  ///   - transport: How to reach Google.
  ///   - clock: The clock.
  /// - Throws: ``AuthError/Code/configuration`` for an empty client id or secret, or a
  ///   `SOCIALLOGIN_EMULATOR_HOST` that is malformed or not a loopback host.
  public static func google(
    clientID: String,
    clientSecret: Secret?,
    hostedDomains: [String] = [],
    appClientIDs: [String] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> GoogleProvider {
    var configuration = try GoogleConfiguration(
      clientID: clientID, clientSecret: clientSecret, environment: environment)
    configuration.hostedDomains = hostedDomains
    configuration.appClientIDs = appClientIDs
    return GoogleProvider(configuration: configuration, transport: transport, clock: clock)
  }

  /// Google sign-in with a full configuration.
  ///
  /// ```swift
  /// var configuration = try GoogleConfiguration(clientID: id, clientSecret: secret)
  /// configuration.offlineAccess = false
  /// let provider: GoogleProvider = .google(configuration)
  /// ```
  public static func google(
    _ configuration: GoogleConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) -> GoogleProvider {
    GoogleProvider(configuration: configuration, transport: transport, clock: clock)
  }
}
