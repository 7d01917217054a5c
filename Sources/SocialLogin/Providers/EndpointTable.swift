import Foundation

/// The named endpoints of a provider configuration: production defaults, explicit overrides
/// (the CLI's `--endpoint NAME=URL`) and the emulator mapping, resolved in one place so every
/// provider applies the same rule.
///
/// An explicit override is used exactly as given; a default is mapped through the
/// ``EmulatorHost`` when one is configured.
///
/// Facebook and LINE keep their defaults as literals (``url(_:production:emulator:)``). X and
/// Firebase keep theirs in public properties a caller may also assign directly
/// (`XProvider.Configuration.endpoints`, `FirebaseProvider.Configuration.certificatesURL`):
/// they validate through ``set(_:to:)``, write the property, and resolve with
/// ``url(_:current:emulator:)`` or ``resolve(_:fields:emulator:mapsOnly:)``.
struct EndpointTable: Hashable, Sendable {
  /// The provider, for error messages.
  let provider: ProviderID
  /// How error messages name the provider (`X`, `Firebase`); its id by default.
  let label: String
  /// The names that may be overridden.
  let names: [String]
  /// The overrides set so far, by name.
  private(set) var overrides: [String: URL] = [:]
  /// The emulator the defaults are mapped onto, for the configurations that keep it here
  /// (Facebook, LINE and X: their `emulatorHost`).
  var emulator: EmulatorHost?

  init(provider: ProviderID, label: String? = nil, names: [String]) {
    self.provider = provider
    self.label = label ?? provider.rawValue
    self.names = names
  }

  /// A table with its emulator resolved by the rule every provider shares
  /// (``EmulatorHost/resolve(_:variable:environment:provider:)``).
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an emulator host that is not a loopback
  ///   host, or a `SOCIALLOGIN_EMULATOR_HOST` in `environment` that is malformed or not one.
  init(
    provider: ProviderID, label: String? = nil, names: [String], emulatorHost: EmulatorHost?,
    environment: [String: String]
  ) throws(AuthError) {
    self.init(provider: provider, label: label, names: names)
    emulator = try EmulatorHost.resolve(emulatorHost, environment: environment, provider: provider)
  }

  /// Sets the endpoint `name` to `url`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an unknown name or a URL that is not an
  ///   absolute `https` URL, or `http` URL to a loopback host.
  mutating func set(_ name: String, to url: URL) throws(AuthError) {
    guard names.contains(name) else {
      throw AuthError(
        .configuration,
        "'\(ErrorText.excerpt(name, limit: 64))' is not an endpoint of \(label); "
          + "the names are: \(names.joined(separator: ", ")).",
        provider: provider)
    }
    guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
      let host = url.host, !host.isEmpty
    else {
      throw AuthError(
        .configuration,
        "The \(label) endpoint '\(name)' must be an absolute http(s) URL with a host.",
        provider: provider)
    }
    // Every endpoint carries a secret or a token (client_secret, appsecret_proof, codes,
    // access tokens) or trusted keys: plain http only where nothing leaves the machine.
    try url.requireHTTPSOrLoopback("\(label) endpoint '\(name)'", provider: provider)
    overrides[name] = url
  }

  /// The URL of `name`: its override, or `production` mapped through `emulator`.
  func url(_ name: String, production: URL, emulator: EmulatorHost?) -> URL {
    if let override = overrides[name] { return override }
    return emulator?.map(production) ?? production
  }

  /// The URL of `name`: its override, or the literal `production` mapped through ``emulator``.
  func url(_ name: String, production: String) -> URL {
    url(name, production: .known(production), emulator: emulator)
  }

  /// The URL of `name` whose value lives in a property callers may also assign directly:
  /// `current` as given while it is the override ``set(_:to:)`` made, else `current` mapped
  /// through `emulator` (a value assigned directly is a default, like the production one).
  func url(_ name: String, current: URL, emulator: EmulatorHost?) -> URL {
    if overrides[name] == current { return current }
    return emulator?.map(current) ?? current
  }

  /// `endpoints` with every field in `fields` resolved by ``url(_:current:emulator:)``;
  /// `mapsOnly` picks the URLs the emulator serves (X maps only its production hosts).
  /// Sets the endpoint `name` to `url` (see ``set(_:to:)``) and writes it into its field of
  /// `endpoints`: one step for every configuration that keeps its URLs in an `Endpoints`
  /// value.
  mutating func set<Endpoints>(
    _ name: String, to url: URL, in endpoints: inout Endpoints,
    fields: [(name: String, field: WritableKeyPath<Endpoints, URL>)]
  ) throws(AuthError) {
    try set(name, to: url)
    for (known, field) in fields where known == name {
      endpoints[keyPath: field] = url
    }
  }

  func resolve<Endpoints>(
    _ endpoints: Endpoints, fields: [(name: String, field: WritableKeyPath<Endpoints, URL>)],
    emulator: EmulatorHost?, mapsOnly: (URL) -> Bool = { _ in true }
  ) -> Endpoints {
    var resolved = endpoints
    for (name, field) in fields {
      let current = endpoints[keyPath: field]
      resolved[keyPath: field] = url(
        name, current: current, emulator: mapsOnly(current) ? emulator : nil)
    }
    return resolved
  }
}

extension URL {
  /// A URL from a literal the SDK itself spells; `fallback` only if the literal were invalid,
  /// which tests rule out (no force-unwrap on a path that could ever see outside data).
  static func known(_ text: String) -> URL {
    URL(string: text) ?? URL(fileURLWithPath: "/")
  }
}
