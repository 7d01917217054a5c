import Foundation

/// Where the SocialLogin provider emulator listens, for pointing every provider at it with one
/// setting.
///
/// The emulator serves each provider under its production host name as the first path segment
/// (the Firebase Auth emulator's convention), so `https://graph.facebook.com/v26.0/me` becomes
/// `http://127.0.0.1:9199/graph.facebook.com/v26.0/me`. Providers map every endpoint through
/// ``map(_:)`` when an emulator host is configured, and read `SOCIALLOGIN_EMULATOR_HOST`
/// (`HOST:PORT`) when none is given explicitly.
///
/// ## Loopback only
/// The emulator is spoken to in plain `http`, with client secrets, `appsecret_proof`s and
/// tokens in the requests, so an emulator host must be a loopback host: `127.0.0.0/8`, `::1`
/// or `localhost` (``isLoopback``). ``init(parsing:)``, ``fromEnvironment(_:)`` and every
/// provider configuration refuse any other host with ``AuthError/Code/configuration`` (naming
/// the environment variable when the host came from one), so an environment variable alone
/// can never send secrets elsewhere. A host built with ``init(host:port:)`` and set on a
/// configuration afterwards is refused when a request would be sent (nothing is sent).
///
/// ```swift
/// let emulator = try EmulatorHost(parsing: "127.0.0.1:9199")
/// emulator.map(URL(string: "https://api.x.com/2/oauth2/token")!)
/// // http://127.0.0.1:9199/api.x.com/2/oauth2/token
/// ```
public struct EmulatorHost: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The environment variable the SDK reads: `SOCIALLOGIN_EMULATOR_HOST=HOST:PORT`.
  public static let environmentVariable = "SOCIALLOGIN_EMULATOR_HOST"

  /// The host name or address (`127.0.0.1`, `localhost`, `[::1]` without brackets).
  public var host: String
  /// The TCP port.
  public var port: UInt16

  /// Creates an emulator host.
  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// Parses `HOST:PORT` (`127.0.0.1:9199`, `localhost:9199`, `[::1]:9199`).
  ///
  /// - Throws: ``AuthError/Code/configuration`` when the text is not `HOST:PORT` with a port
  ///   from 1 to 65535, or the host is not a loopback host (see ``isLoopback``).
  public init(parsing text: String) throws(AuthError) {
    try self.init(parsingAnyHost: text)
    try requireLoopback(source: nil, provider: nil)
  }

  /// Parses `HOST:PORT` without the loopback check (the callers add it, naming their source).
  private init(parsingAnyHost text: String) throws(AuthError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let colon = trimmed.lastIndex(of: ":"),
      let port = UInt16(trimmed[trimmed.index(after: colon)...]), port != 0
    else {
      throw AuthError(
        .configuration,
        "The emulator host '\(trimmed)' is not HOST:PORT (for example 127.0.0.1:9199).")
    }
    var host = String(trimmed[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, !host.contains("/"), !host.contains("@"), !host.contains(" ") else {
      throw AuthError(.configuration, "The emulator host '\(trimmed)' has no valid host name.")
    }
    self.init(host: host, port: port)
  }

  /// Whether ``host`` is a loopback host: `127.0.0.0/8` in dotted-quad form, `::1` or
  /// `localhost`. Only such hosts are accepted as an emulator (see "Loopback only").
  public var isLoopback: Bool { URL.isLoopbackHost(host) }

  /// Throws ``AuthError/Code/configuration`` unless ``isLoopback``; `source` names where the
  /// host came from (an environment variable) for the message.
  func requireLoopback(source: String?, provider: ProviderID?) throws(AuthError) {
    guard !isLoopback else { return }
    let origin =
      source.map { "\($0) names the emulator host '\(description)'" }
      ?? "The emulator host '\(description)'"
    throw AuthError(
      .configuration,
      "\(origin), which is not a loopback host: the emulator is spoken to in plain http with "
        + "client secrets and tokens, so only 127.0.0.0/8, ::1 and localhost are accepted.",
      provider: provider)
  }

  /// The emulator named by `SOCIALLOGIN_EMULATOR_HOST` in `environment`, if it is set and
  /// not empty.
  ///
  /// ```swift
  /// let emulator = try EmulatorHost.fromEnvironment()      // the process's environment
  /// let none = try EmulatorHost.fromEnvironment([:])       // nil: ignore the environment
  /// ```
  ///
  /// - Parameter environment: Where the variable is read; the process's environment by
  ///   default. Pass `[:]` (or your own dictionary) so the process's variables cannot move
  ///   where requests go.
  /// - Throws: ``AuthError/Code/configuration`` naming the variable when it is set but
  ///   malformed (a typo must not silently send logins to the real providers) or names a host
  ///   that is not a loopback host (secrets must not travel in plain http to another machine).
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(AuthError) -> EmulatorHost? {
    try fromEnvironment(environment, variable: environmentVariable, provider: nil)
  }

  /// The emulator named by `variable` in `environment`, checked as ``fromEnvironment(_:)``
  /// describes; errors name `variable`.
  static func fromEnvironment(
    _ environment: [String: String], variable: String, provider: ProviderID?
  ) throws(AuthError) -> EmulatorHost? {
    guard let value = environment[variable], !value.isEmpty else { return nil }
    let host: EmulatorHost
    do {
      host = try EmulatorHost(parsingAnyHost: value)
    } catch {
      throw AuthError(
        .configuration, "\(variable) is set but malformed: \(error.message)", provider: provider)
    }
    try host.requireLoopback(source: variable, provider: provider)
    return host
  }

  /// The emulator a provider configuration uses, the one rule every provider and Firebase
  /// share: `explicit` when given, else `variable` in `environment`; either way a loopback
  /// host, or ``AuthError/Code/configuration`` (naming `variable` when the host came from it).
  static func resolve(
    _ explicit: EmulatorHost?, variable: String = environmentVariable,
    environment: [String: String], provider: ProviderID
  ) throws(AuthError) -> EmulatorHost? {
    if let explicit {
      try explicit.requireLoopback(source: nil, provider: provider)
      return explicit
    }
    return try fromEnvironment(environment, variable: variable, provider: provider)
  }

  /// `http://HOST:PORT`, the emulator's base URL.
  public var baseURL: URL {
    var components = URLComponents()
    components.scheme = "http"
    components.host = host.contains(":") ? "[\(host)]" : host
    components.port = Int(port)
    components.path = ""
    // A host and port that `init(parsing:)` accepted always form a URL.
    return components.url ?? URL(fileURLWithPath: "/")
  }

  /// Maps a production URL onto the emulator: `https://api.x.com/2/users/me?x=1` becomes
  /// `http://HOST:PORT/api.x.com/2/users/me?x=1`. URLs without a host are returned unchanged.
  public func map(_ url: URL) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let originalHost = components.host, !originalHost.isEmpty
    else { return url }
    let path = components.percentEncodedPath
    components.scheme = "http"
    components.host = host.contains(":") ? "[\(host)]" : host
    components.port = Int(port)
    components.percentEncodedPath = "/" + originalHost + (path.hasPrefix("/") ? path : "/" + path)
    return components.url ?? url
  }

  /// `HOST:PORT`.
  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
