import Foundation

extension LoginProvider where Self == XProvider {
  /// An X provider with OAuth 2.0 + PKCE, for ``LoginClient``'s provider list.
  ///
  /// ```swift
  /// let login = try LoginClient(
  ///   providers: [.twitter(clientID: clientID, clientSecret: Secret(secret))], store: store)
  /// let session = try await login(.twitter)
  /// ```
  ///
  /// - Parameters:
  ///   - clientID: The OAuth 2.0 client id.
  ///   - clientSecret: The secret of a confidential client (HTTP Basic); `nil` for a public one.
  ///   - scopes: The scopes; `users.read tweet.read offline.access` by default.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment by
  ///     default; a service or test passes `[:]` (or its own dictionary) so that no process
  ///     variable can move where requests go.
  ///   - transport: How to reach X.
  ///   - clock: Time for expiry and rate-limit resets.
  /// - Throws: ``AuthError/Code/configuration`` for an empty client id, or a
  ///   `SOCIALLOGIN_EMULATOR_HOST` that is malformed or not a loopback host.
  public static func twitter(
    clientID: String,
    clientSecret: Secret? = nil,
    scopes: [String] = XProvider.Configuration.defaultScopes,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> XProvider {
    XProvider(
      configuration: try XProvider.Configuration(
        clientID: clientID, clientSecret: clientSecret, scopes: scopes,
        environment: environment),
      transport: transport, clock: clock)
  }

  /// The same as ``twitter(clientID:clientSecret:scopes:environment:transport:clock:)``: X
  /// and Twitter are one provider.
  public static func x(
    clientID: String,
    clientSecret: Secret? = nil,
    scopes: [String] = XProvider.Configuration.defaultScopes,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> XProvider {
    try twitter(
      clientID: clientID, clientSecret: clientSecret, scopes: scopes, environment: environment,
      transport: transport, clock: clock)
  }

  /// An X provider from a full OAuth 2.0 configuration (endpoints, `user.fields`, emulator).
  public static func twitter(
    configuration: XProvider.Configuration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) -> XProvider {
    XProvider(configuration: configuration, transport: transport, clock: clock)
  }

  /// An X provider for the legacy OAuth 1.0a flow, with a consumer key and secret.
  ///
  /// ```swift
  /// let login = try LoginClient(
  ///   providers: [.twitter(consumerKey: key, consumerSecret: Secret(secret))], store: store)
  /// ```
  ///
  /// - Parameters:
  ///   - consumerKey: The consumer (API) key.
  ///   - consumerSecret: The consumer (API key) secret.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment by
  ///     default; a service or test passes `[:]` (or its own dictionary) so that no process
  ///     variable can move where requests go.
  ///   - transport: How to reach X.
  ///   - clock: Time for the OAuth 1.0a timestamps and pending logins.
  /// - Throws: ``AuthError/Code/configuration`` for an empty key or secret, or a
  ///   `SOCIALLOGIN_EMULATOR_HOST` that is malformed or not a loopback host.
  public static func twitter(
    consumerKey: String,
    consumerSecret: Secret,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> XProvider {
    XProvider(
      oauth1: try XProvider.OAuth1Configuration(
        consumerKey: consumerKey, consumerSecret: consumerSecret, environment: environment),
      transport: transport, clock: clock)
  }

  /// An X provider from a full OAuth 1.0a configuration.
  public static func twitter(
    oauth1 configuration: XProvider.OAuth1Configuration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) -> XProvider {
    XProvider(oauth1: configuration, transport: transport, clock: clock)
  }

  /// An X provider for either flow, as the CLI builds it from `--oauth1` and `--endpoint`.
  public static func twitter(
    flow: XProvider.Flow,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) -> XProvider {
    XProvider(flow: flow, transport: transport, clock: clock)
  }
}
