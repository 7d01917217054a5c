import Foundation
import SocialLogin

/// Builds the provider actor a profile describes. The one place that knows each provider's
/// configuration API; `login`, `token`, `logout` and `verify` all build providers here.
enum ProviderFactory {
  /// `profile` with its client secret (read from the environment or the emulator's default
  /// app) and the emulator in effect, ready to build a provider.
  struct Resolved: Sendable {
    var profile: SessionProfile
    var clientSecret: Secret?
    var emulator: EmulatorHost?
    /// Whether Facebook and LINE need their secret: `false` for verifying what only needs the
    /// app or channel id (Facebook ID tokens, LINE access and ES256 ID tokens).
    var requiresSecret = true
    /// Facebook's client token, for a device login (`login facebook --device`).
    var clientToken: Secret?
  }

  /// Reads the secret a profile names and settles the emulator, for a new login or a
  /// verification: `--emulator` / `SOCIALLOGIN_EMULATOR_HOST` (which ``LoginProfile`` already
  /// wrote into the profile).
  static func resolve(_ profile: SessionProfile, _ invocation: Invocation) throws -> Resolved {
    var emulator = try invocation.emulatorHost()
    if emulator == nil, let remembered = profile.emulator {
      emulator = try rememberedEmulator(remembered)
    }
    return Resolved(
      profile: profile, clientSecret: try secret(of: profile, invocation), emulator: emulator)
  }

  /// Settles where the tokens of the stored session `key` go: where its profile says, the
  /// emulator it was made with or the real provider. An emulator asked for now (`--emulator`,
  /// `SOCIALLOGIN_EMULATOR_HOST`, and for Firebase `FIREBASE_AUTH_EMULATOR_HOST`) never
  /// redirects the session: one that differs from the profile's is a ``UsageError`` naming
  /// the mismatch, before anything is sent.
  static func resolveStored(
    _ profile: SessionProfile, for key: SessionKey, _ invocation: Invocation
  )
    throws -> Resolved
  {
    let remembered = try profile.emulator.map(rememberedEmulator)
    if let (requested, source) = try requestedEmulator(for: profile.kind, invocation),
      requested != remembered
    {
      let made = remembered.map { "with the emulator at \($0)" } ?? "without the emulator"
      throw UsageError(
        "session \(key) was made \(made), but \(source) names the emulator at \(requested); "
          + "a session's tokens go only where its profile says, so nothing was sent (drop "
          + "\(source.hasPrefix("--") ? source : "$" + source) or sign in again with it)")
    }
    var resolved = Resolved(
      profile: profile, clientSecret: try secret(of: profile, invocation), emulator: remembered)
    // A Facebook session made by a device login with the client token alone has no secret to
    // name: its token is used and revoked with the user token (appsecret_proof only with one).
    if profile.kind == .facebook, profile.clientSecretVariable == nil, !profile.usesEmulatorApp {
      resolved.requiresSecret = false
    }
    return resolved
  }

  /// The emulator the invocation asks for, and what asked (`--emulator` or a variable).
  private static func requestedEmulator(for kind: ProviderKind, _ invocation: Invocation)
    throws -> (EmulatorHost, String)?
  {
    if kind == .firebase {
      let name = FirebaseProvider.Configuration.emulatorEnvironmentVariable
      if let value = invocation.environment[name], !value.isEmpty {
        guard let host = try FirebaseCommands.emulator(invocation) else { return nil }
        return (host, name)
      }
    }
    guard let requested = try invocation.emulatorHost() else { return nil }
    let source =
      invocation.arguments.value(GlobalOptions.emulator) != nil
      ? GlobalOptions.emulator.name : EmulatorHost.environmentVariable
    return (requested, source)
  }

  /// The emulator a profile remembers; one that is no longer acceptable (not a loopback host)
  /// is an error rather than a silent switch to the real provider.
  private static func rememberedEmulator(_ text: String) throws(UsageError) -> EmulatorHost {
    do {
      return try EmulatorHost(parsing: text)
    } catch {
      throw UsageError(
        "the session's profile names the emulator '\(text)', which is not a loopback "
          + "HOST:PORT; sign in again")
    }
  }

  /// The client secret the profile names: from its environment variable, or the emulator's
  /// default app.
  private static func secret(of profile: SessionProfile, _ invocation: Invocation)
    throws(UsageError) -> Secret?
  {
    var secret: Secret?
    if let name = profile.clientSecretVariable {
      secret = Secret(try invocation.requiredEnvironment(name, for: "the client secret"))
    } else if profile.usesEmulatorApp {
      secret =
        EmulatorDefaults.defaultApp(
          for: profile.kind, oauth1: profile.oauth1, described: profile.providerDescription)?
        .clientSecret
    }
    return secret
  }

  /// The provider actor for `resolved`.
  ///
  /// - Throws: ``UsageError`` for a missing client id or issuer or an unknown endpoint name;
  ///   `AuthError` from the provider's configuration.
  static func make(_ resolved: Resolved) throws -> any LoginProvider {
    let profile = resolved.profile
    try checkEndpointNames(profile)
    switch profile.kind {
    case .oidc:
      guard let issuer = profile.issuer else {
        throw UsageError("--issuer is required (or --emulator for the emulator's OpenID provider)")
      }
      return OIDCProvider(
        id: .oidc(issuer: issuer),  // one key space per issuer
        configuration: OIDCProvider.Configuration(
          issuer: issuer, clientID: try clientID(profile), clientSecret: resolved.clientSecret,
          scopes: profile.scopes.isEmpty ? ["openid", "profile", "email"] : profile.scopes))
    case .facebook:
      var configuration = try FacebookConfiguration(
        appID: try clientID(profile),
        appSecret: try optionalSecret(resolved, "the app secret"),
        scopes: profile.scopes.isEmpty ? ["public_profile", "email"] : profile.scopes,
        emulatorHost: resolved.emulator, environment: [:])
      configuration.clientToken = resolved.clientToken
      for (name, url) in profile.endpoints { try configuration.setEndpoint(name, to: url) }
      return FacebookProvider(configuration: configuration)
    case .line:
      var configuration = try LINEConfiguration(
        channelID: try clientID(profile),
        channelSecret: try optionalSecret(resolved, "the channel secret"),
        scopes: profile.scopes.isEmpty ? ["profile", "openid"] : profile.scopes,
        emulatorHost: resolved.emulator, environment: [:])
      for (name, url) in profile.endpoints { try configuration.setEndpoint(name, to: url) }
      return LINEProvider(configuration: configuration)
    case .google:
      var configuration = try GoogleConfiguration(
        clientID: try clientID(profile),
        clientSecret: try optionalSecret(resolved, "the client secret"),
        scopes: profile.scopes.isEmpty ? ["openid", "email", "profile"] : profile.scopes,
        emulatorHost: resolved.emulator, environment: [:])
      configuration.hostedDomains = profile.hostedDomains ?? []
      configuration.appClientIDs = profile.appClientIDs ?? []
      for (name, url) in profile.endpoints { try configuration.setEndpoint(name, to: url) }
      return GoogleProvider(configuration: configuration)
    case .twitter where profile.oauth1:
      var configuration = try XProvider.OAuth1Configuration(
        consumerKey: try clientID(profile),
        consumerSecret: try secret(resolved, "the consumer secret"),
        emulatorHost: resolved.emulator, environment: [:])
      for (name, url) in profile.endpoints { try configuration.setEndpoint(name, to: url) }
      return XProvider(oauth1: configuration)
    case .twitter:
      var configuration = try XProvider.Configuration(
        clientID: try clientID(profile), clientSecret: resolved.clientSecret,
        scopes: profile.scopes.isEmpty ? XProvider.Configuration.defaultScopes : profile.scopes,
        emulatorHost: resolved.emulator, environment: [:])
      for (name, url) in profile.endpoints { try configuration.setEndpoint(name, to: url) }
      return XProvider(configuration: configuration)
    case .apple:
      var configuration = try AppleConfiguration(
        clientIDs: [try clientID(profile)],
        teamID: profile.teamID ?? (profile.usesEmulatorApp ? EmulatorDefaults.appleKey.teamID : ""),
        keyID: profile.keyID ?? (profile.usesEmulatorApp ? EmulatorDefaults.appleKey.keyID : ""),
        privateKeyPEM: try applePrivateKey(profile),
        scopes: profile.scopes.isEmpty ? ["name", "email"] : profile.scopes,
        emulatorHost: resolved.emulator, environment: [:])
      for (name, url) in profile.endpoints { try configuration.setEndpoint(name, to: url) }
      return AppleProvider(configuration: configuration)
    case .firebase:
      // `firebase sign-in` remembers the API key as the client id and the ID tokens' issuer,
      // https://securetoken.google.com/<project>.
      guard let apiKey = profile.clientID, let projectID = profile.issuer?.lastPathComponent
      else { throw UsageError("the Firebase session's profile has no API key or project") }
      var configuration = FirebaseProvider.Configuration(
        apiKey: apiKey, projectID: projectID, tenantID: profile.tenantID,
        emulatorHost: resolved.emulator, environment: [:])
      configuration.acceptsUnsignedEmulatorTokens = resolved.emulator != nil
      for (name, url) in profile.endpoints { try configuration.setEndpoint(name, to: url) }
      return FirebaseProvider(configuration: configuration)
    default:
      return DescribedProvider(configuration: try describedConfiguration(resolved))
    }
  }

  /// The description a profile of a described kind uses: the one it keeps (loaded with
  /// `--provider-file`), else the built-in one.
  static func description(of profile: SessionProfile) throws(UsageError) -> ProviderDescription {
    if let kept = profile.providerDescription { return kept }
    guard let builtIn = profile.kind.builtInDescription else {
      throw UsageError("unknown provider '\(profile.kind.rawValue)'")
    }
    return builtIn
  }

  /// A described provider's configuration from `resolved`: the client id (a comma-separated
  /// list adds the other app keys as accepted ID-token audiences), the secret the description
  /// needs, its parameters, the endpoints and the emulator.
  static func describedConfiguration(_ resolved: Resolved) throws -> DescribedProviderConfiguration
  {
    let profile = resolved.profile
    let description = try description(of: profile)
    let ids = try clientID(profile).split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard let first = ids.first, !first.isEmpty, !ids.contains(where: \.isEmpty) else {
      throw UsageError("--client-id has an empty key")
    }
    let secret: Secret?
    switch description.client.secret {
    case .required: secret = try optionalSecret(resolved, "the client secret")
    case .optional: secret = resolved.clientSecret?.isEmpty == false ? resolved.clientSecret : nil
    case .none: secret = nil
    }
    var parameters: [String: String] = [:]
    for name in description.parameters {
      guard let value = profile.parameters?[name], !value.isEmpty else {
        throw UsageError("\(description.displayName) needs --\(name) VALUE")
      }
      parameters[name] = value
    }
    var configuration: DescribedProviderConfiguration
    do {
      configuration = try DescribedProviderConfiguration(
        description, clientID: first, clientSecret: secret, parameters: parameters,
        emulatorHost: resolved.emulator, environment: [:])
    } catch {
      // The flags (a tenant, a client id) are what is wrong: bad usage, before anything is sent.
      throw UsageError(error.message)
    }
    configuration.audiences = Array(ids.dropFirst())
    configuration.appID = profile.appID
    if !profile.scopes.isEmpty { configuration.scopes = profile.scopes }
    for (name, url) in profile.endpoints { try configuration.setEndpoint(name, to: url) }
    return configuration
  }

  /// The names `--endpoint NAME=URL` accepts for `kind` (exactly the provider configuration's
  /// `endpointNames`).
  static func endpointNames(for kind: ProviderKind, oauth1: Bool) -> [String] {
    switch kind {
    case .oidc: return []
    case .facebook: return FacebookConfiguration.endpointNames
    case .twitter:
      return oauth1
        ? XProvider.OAuth1Configuration.endpointNames : XProvider.Configuration.endpointNames
    case .line: return LINEConfiguration.endpointNames
    case .google: return GoogleConfiguration.endpointNames
    case .apple: return AppleConfiguration.endpointNames
    case .firebase: return FirebaseProvider.Configuration.endpointNames
    default: return kind.builtInDescription?.endpointNames ?? []
    }
  }

  /// The `.p8` of an Apple profile: the emulator's for its default app, else the text of
  /// `--private-key-file`, else none (verification only).
  private static func applePrivateKey(_ profile: SessionProfile) throws(UsageError) -> Secret? {
    if profile.usesEmulatorApp, profile.privateKeyFile == nil {
      return Secret(EmulatorDefaults.appleKey.privateKeyPEM)
    }
    guard let path = profile.privateKeyFile else { return nil }
    let url = URL(fileURLWithPath: path)
    guard let data = try? Data(contentsOf: url), data.count <= 16_384,
      let text = String(data: data, encoding: .utf8)
    else {
      throw UsageError("cannot read the Apple private key from --private-key-file '\(path)'")
    }
    return Secret(text)
  }

  private static func clientID(_ profile: SessionProfile) throws(UsageError) -> String {
    guard let id = profile.clientID, !id.isEmpty else {
      throw UsageError(
        "--client-id is required (or $\(profile.kind.clientIDVariable), or --emulator for the "
          + "emulator's default app)")
    }
    return id
  }

  /// The secret of `resolved`, or `nil` when none is given and it is not
  /// ``Resolved/requiresSecret``.
  private static func optionalSecret(_ resolved: Resolved, _ what: String)
    throws(UsageError) -> Secret?
  {
    if !resolved.requiresSecret, resolved.clientSecret?.isEmpty ?? true { return nil }
    return try secret(resolved, what)
  }

  private static func secret(_ resolved: Resolved, _ what: String) throws(UsageError) -> Secret {
    guard let secret = resolved.clientSecret, !secret.isEmpty else {
      let kind = resolved.profile.kind
      throw UsageError(
        "\(kind.displayName) needs \(what): --client-secret-env NAME (or "
          + "$\(kind.clientSecretVariable), or --emulator for the emulator's default app)")
    }
    return secret
  }

  private static func checkEndpointNames(_ profile: SessionProfile) throws(UsageError) {
    let known =
      profile.providerDescription?.endpointNames
      ?? endpointNames(for: profile.kind, oauth1: profile.oauth1)
    for name in profile.endpoints.keys.sorted() where !known.contains(name) {
      throw UsageError(
        known.isEmpty
          ? "\(profile.kind.displayName) takes no --endpoint (its endpoints come from discovery)"
          : "unknown --endpoint name '\(name)' (known: \(known.joined(separator: ", ")))")
    }
  }
}
