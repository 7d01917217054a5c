import Foundation

/// A described provider's settings for one app: the description, the client id and secret,
/// the description's parameters, endpoint overrides and the emulator.
///
/// ```swift
/// var kakao = try DescribedProviderConfiguration(
///   .kakao, clientID: restAPIKey, clientSecret: Secret(secret))
/// kakao.audiences = [nativeAppKey]  // ID tokens a Kakao SDK obtained in the app
/// ```
public struct DescribedProviderConfiguration: Hashable, Sendable {
  /// The provider.
  public let description: ProviderDescription
  /// The client id (Kakao's REST API key).
  public var clientID: String
  /// The client secret, if the app has one.
  public var clientSecret: Secret?
  /// The scopes; `nil` asks for the description's defaults.
  public var scopes: [String]?
  /// Further `aud` values accepted in ID tokens an app sends (Kakao's native app key or
  /// JavaScript key, Google's Android client ids), besides ``clientID``.
  public var audiences: [String]
  /// The provider's id for this app where it differs from the client id (Kakao's numeric
  /// app id in `access_token_info`).
  public var appID: String?
  /// The values of the description's ``ProviderDescription/parameters`` (Microsoft's
  /// `tenant`).
  public var parameters: [String: String]
  /// Clock-skew tolerance for ID-token time claims, in seconds.
  public var leeway: TimeInterval
  /// The emulator every default endpoint is mapped onto; explicit endpoint overrides are
  /// used as given. Set it to `nil` to ignore `SOCIALLOGIN_EMULATOR_HOST`.
  public var emulatorHost: EmulatorHost? {
    get { endpoints.emulator }
    set { endpoints.emulator = newValue }
  }
  /// The endpoint overrides and the emulator, resolved by the rule every provider shares.
  private var endpoints: EndpointTable
  /// What a provider's own configuration type adds (``LINEConfiguration``'s prompts).
  var runtime = DescribedRuntimeOptions()
  /// Authorization parameters set at run time, after the description's
  /// ``AuthorizationRules/extraParameters`` (Google's `access_type`, `prompt`, `hd` and
  /// `login_hint` from ``GoogleConfiguration``). Names the OAuth client sets itself (`state`,
  /// `nonce`, `redirect_uri`, ...) are refused when a login starts. Empty by default.
  public var authorizationParameters: [URLQueryItem] = []
  /// Claims every accepted ID token must carry (Google's `hd` for hosted domains). Empty by
  /// default.
  public var requiredClaims: [ClaimRequirement] = []

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - description: The provider.
  ///   - clientID: The client id.
  ///   - clientSecret: Its secret, if any.
  ///   - parameters: The description's parameters (`["tenant": "common"]`).
  ///   - emulatorHost: The emulator (a loopback host); `nil` reads
  ///     `SOCIALLOGIN_EMULATOR_HOST` from `environment`.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read; pass `[:]` so that no
  ///     environment variable can move where requests go.
  /// - Throws: ``AuthError/Code/configuration`` for a description that fails
  ///   ``ProviderDescription/validate()``, an empty client id, an empty secret, a missing or
  ///   unknown parameter, or an emulator host that is not a loopback host. A secret the
  ///   description requires may be missing here (a backend that only verifies what apps send
  ///   needs none); token requests then fail naming it.
  public init(
    _ description: ProviderDescription,
    clientID: String,
    clientSecret: Secret? = nil,
    parameters: [String: String] = [:],
    emulatorHost: EmulatorHost? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(AuthError) {
    let label = description.displayName
    guard !clientID.isEmpty else {
      throw AuthError(
        .configuration,
        "The \(label) \(description.client.clientIDLabel) (clientID) is empty.",
        provider: description.id)
    }
    if let clientSecret, clientSecret.isEmpty {
      throw AuthError(
        .configuration,
        "The \(label) client secret is empty; pass nil when the app has none.",
        provider: description.id)
    }
    try description.validate()
    for name in description.parameters where (parameters[name] ?? "").isEmpty {
      throw AuthError(
        .configuration, "\(label) needs the setting '\(name)'.", provider: description.id)
    }
    for (name, value) in parameters where !Self.isPathSafe(value) {
      throw AuthError(
        .configuration,
        "The \(label) setting '\(ErrorText.excerpt(name, limit: 64))' may hold only letters, "
          + "digits, '.', '-' and '_'.",
        provider: description.id)
    }
    for name in parameters.keys where !description.parameters.contains(name) {
      throw AuthError(
        .configuration,
        "'\(ErrorText.excerpt(name, limit: 64))' is not a setting of \(label).",
        provider: description.id)
    }
    self.init(
      checked: description, clientID: clientID, clientSecret: clientSecret,
      endpoints: try EndpointTable(
        provider: description.id, label: label, names: description.endpointNames,
        emulatorHost: emulatorHost, environment: environment))
    self.parameters = parameters
  }

  /// A configuration whose client and endpoints a provider's own configuration already
  /// checked (``GoogleConfiguration``): its endpoint table, with its overrides and emulator,
  /// is used as it is, so both resolve every URL alike.
  init(
    checked description: ProviderDescription, clientID: String, clientSecret: Secret?,
    endpoints: EndpointTable
  ) {
    self.description = description
    self.clientID = clientID
    self.clientSecret = clientSecret
    scopes = nil
    audiences = []
    appID = nil
    parameters = [:]
    leeway = 60
    self.endpoints = endpoints
  }

  /// Points the endpoint `name` (one of the description's) at `url`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an unknown name, or a URL that is neither
  ///   `https` nor `http` to a loopback host.
  public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
    try endpoints.set(name, to: url)
  }

  /// The URL of the endpoint `name`: an override as given, else the production URL with the
  /// parameters and `{client_id}` substituted, mapped onto the emulator when one is set.
  /// `nil` for a name the description lacks or a template that does not form a URL.
  public func url(_ name: String) -> URL? {
    guard let endpoint = description.endpoint(name) else { return nil }
    guard Self.isPathSafe(clientID) || !endpoint.production.contains("{client_id}") else {
      return nil
    }
    var text = endpoint.production.replacingOccurrences(of: "{client_id}", with: clientID)
    for (key, value) in parameters {
      text = text.replacingOccurrences(of: "{\(key)}", with: value)
    }
    guard let production = URL(string: text) else { return nil }
    return endpoints.url(name, production: production, emulator: endpoints.emulator)
  }

  /// Whether `value` can go into a URL path as it is: a tenant or client id cannot add a
  /// path segment, a query or a host.
  static func isPathSafe(_ value: String) -> Bool {
    !value.isEmpty && value.utf8.count <= 256
      && value.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x2D || byte == 0x5F
      }
  }

  /// The scopes a login asks for.
  public var effectiveScopes: [String] { scopes ?? description.authorization.defaultScopes }
}
