import Foundation

/// Builds providers from environment variables, with the names the CLI, the snippets and the
/// articles share, and errors that name the variable that is missing.
///
/// | Provider | Variables |
/// |---|---|
/// | Facebook | `SOCIALLOGIN_FACEBOOK_CLIENT_ID` (App ID), `SOCIALLOGIN_FACEBOOK_CLIENT_SECRET` (App secret) |
/// | X | `SOCIALLOGIN_TWITTER_CLIENT_ID`, `SOCIALLOGIN_TWITTER_CLIENT_SECRET` (confidential clients only) |
/// | LINE | `SOCIALLOGIN_LINE_CLIENT_ID` (Channel ID), `SOCIALLOGIN_LINE_CLIENT_SECRET` (Channel secret) |
/// | Firebase | `FIREBASE_API_KEY`, `FIREBASE_PROJECT_ID`, optionally `FIREBASE_TENANT_ID` |
///
/// The same dictionary is the providers' `environment:`, so `SOCIALLOGIN_EMULATOR_HOST` (and
/// `FIREBASE_AUTH_EMULATOR_HOST`) in it point them at an emulator, on loopback hosts only. The
/// process's environment is read only when you pass it (or use the default of ``init(_:)``);
/// a test passes a dictionary of its own.
///
/// ```swift
/// let environment = ProviderEnvironment()  // ProcessInfo.processInfo.environment
/// let client = try LoginClient(
///   providers: [try environment.facebook(), try environment.line(), try environment.firebase()],
///   store: try FileSessionStore(directory: directory))
/// let firebase = try FirebaseAuth(client: client)
/// ```
public struct ProviderEnvironment: Sendable {
  /// The variables, by name.
  public let values: [String: String]

  /// Reads from `values` (the process's environment by default).
  public init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
    self.values = values
  }

  /// `SOCIALLOGIN_<PROVIDER>_CLIENT_ID`, for example `SOCIALLOGIN_LINE_CLIENT_ID` or
  /// `SOCIALLOGIN_YAHOO_JAPAN_CLIENT_ID` (every character of the id that a variable name
  /// cannot hold becomes `_`).
  public static func clientIDVariable(for provider: ProviderID) -> String {
    "SOCIALLOGIN_\(variablePart(provider))_CLIENT_ID"
  }

  /// `SOCIALLOGIN_<PROVIDER>_CLIENT_SECRET`, for example `SOCIALLOGIN_LINE_CLIENT_SECRET`.
  public static func clientSecretVariable(for provider: ProviderID) -> String {
    "SOCIALLOGIN_\(variablePart(provider))_CLIENT_SECRET"
  }

  /// The provider id upper-cased, with `_` for anything but ASCII letters and digits.
  private static func variablePart(_ provider: ProviderID) -> String {
    String(
      provider.rawValue.uppercased().unicodeScalars.map { scalar in
        scalar.isASCII && (("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
          ? Character(scalar) : "_"
      })
  }

  /// `FIREBASE_API_KEY`.
  public static let firebaseAPIKeyVariable = "FIREBASE_API_KEY"
  /// `FIREBASE_PROJECT_ID`.
  public static let firebaseProjectIDVariable = "FIREBASE_PROJECT_ID"
  /// `FIREBASE_TENANT_ID` (optional).
  public static let firebaseTenantIDVariable = "FIREBASE_TENANT_ID"

  /// The value of `name`, or `nil` when it is unset or empty.
  public func value(_ name: String) -> String? {
    guard let value = values[name], !value.isEmpty else { return nil }
    return value
  }

  /// The value of `name`.
  ///
  /// - Parameters:
  ///   - name: The variable.
  ///   - meaning: What it holds, for the error (`"the LINE channel ID"`).
  ///   - provider: The provider it configures, for the error.
  /// - Throws: ``AuthError/Code/configuration`` naming the variable when it is unset or empty.
  public func require(_ name: String, meaning: String, provider: ProviderID) throws(AuthError)
    -> String
  {
    guard let value = value(name) else {
      throw AuthError(
        .configuration, "Set \(name) to \(meaning); it is unset or empty.", provider: provider)
    }
    return value
  }

  /// A Facebook configuration from `SOCIALLOGIN_FACEBOOK_CLIENT_ID` and `_CLIENT_SECRET`, to
  /// adjust before making the provider (long-lived tokens, renewal, Graph version).
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming a missing variable, or what
  ///   `FacebookConfiguration.init` throws.
  public func facebookConfiguration(scopes: [String] = ["public_profile", "email"])
    throws(AuthError) -> FacebookConfiguration
  {
    try FacebookConfiguration(
      appID: require(
        Self.clientIDVariable(for: .facebook), meaning: "your Facebook app's App ID",
        provider: .facebook),
      appSecret: Secret(
        require(
          Self.clientSecretVariable(for: .facebook), meaning: "your Facebook app's App secret",
          provider: .facebook)),
      scopes: scopes, environment: values)
  }

  /// A Facebook provider from `SOCIALLOGIN_FACEBOOK_CLIENT_ID` and `_CLIENT_SECRET`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming a missing variable, or what
  ///   ``facebookConfiguration(scopes:)`` throws.
  public func facebook(
    scopes: [String] = ["public_profile", "email"],
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> FacebookProvider {
    FacebookProvider(
      configuration: try facebookConfiguration(scopes: scopes), transport: transport, clock: clock)
  }

  /// A LINE provider from `SOCIALLOGIN_LINE_CLIENT_ID` and `_CLIENT_SECRET`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming a missing variable, or what
  ///   `.line(...)`
  ///   throws.
  public func line(
    scopes: [String] = ["profile", "openid"],
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> LINEProvider {
    try .line(
      channelID: require(
        Self.clientIDVariable(for: .line), meaning: "your LINE Login channel's Channel ID",
        provider: .line),
      channelSecret: Secret(
        require(
          Self.clientSecretVariable(for: .line),
          meaning: "your LINE Login channel's Channel secret", provider: .line)),
      scopes: scopes, environment: values, transport: transport, clock: clock)
  }

  /// An X provider (OAuth 2.0) from `SOCIALLOGIN_TWITTER_CLIENT_ID` and, for a confidential
  /// client, `SOCIALLOGIN_TWITTER_CLIENT_SECRET`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming a missing client id, or what
  ///   `.twitter(...)`
  ///   throws.
  public func twitter(
    scopes: [String] = XProvider.Configuration.defaultScopes,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> XProvider {
    try .twitter(
      clientID: require(
        Self.clientIDVariable(for: .twitter), meaning: "your X app's OAuth 2.0 Client ID",
        provider: .twitter),
      clientSecret: value(Self.clientSecretVariable(for: .twitter)).map { Secret($0) },
      scopes: scopes, environment: values, transport: transport, clock: clock)
  }

  /// A Firebase provider from `FIREBASE_API_KEY`, `FIREBASE_PROJECT_ID` and optionally
  /// `FIREBASE_TENANT_ID`.
  ///
  /// - Parameters:
  ///   - acceptsUnsignedEmulatorTokens: Whether the Firebase Auth emulator's unsigned ID
  ///     tokens verify (``FirebaseProvider/Configuration/acceptsUnsignedEmulatorTokens``):
  ///     code decides, never a variable. Tests and development only.
  ///   - transport: How to reach Firebase.
  ///   - clock: Time for token expiry and ID-token checks.
  /// - Throws: ``AuthError/Code/configuration`` naming a missing variable.
  public func firebase(
    acceptsUnsignedEmulatorTokens: Bool = false,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) throws(AuthError) -> FirebaseProvider {
    .firebase(
      apiKey: try require(
        Self.firebaseAPIKeyVariable, meaning: "the Firebase project's Web API key",
        provider: .firebase),
      projectID: try require(
        Self.firebaseProjectIDVariable, meaning: "the Firebase project id", provider: .firebase),
      tenantID: value(Self.firebaseTenantIDVariable), environment: values,
      acceptsUnsignedEmulatorTokens: acceptsUnsignedEmulatorTokens, transport: transport,
      clock: clock)
  }
}
