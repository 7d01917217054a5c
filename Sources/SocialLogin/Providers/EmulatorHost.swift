import Foundation

/// Where the SocialLogin provider emulator listens, for pointing every provider at it with one
/// setting.
///
/// The emulator serves each provider under its production host name as the first path segment
/// (the Firebase Auth emulator's convention), so `https://graph.facebook.com/v25.0/me` becomes
/// `http://127.0.0.1:9199/graph.facebook.com/v25.0/me`. Providers map every endpoint through
/// ``map(_:)`` when an emulator host is configured, and read `SOCIALLOGIN_EMULATOR_HOST`
/// (`HOST:PORT`) when none is given explicitly.
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
  ///   from 1 to 65535.
  public init(parsing text: String) throws(AuthError) {
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

  /// The emulator named by `SOCIALLOGIN_EMULATOR_HOST` in `environment`, if it is set and
  /// not empty.
  ///
  /// - Throws: ``AuthError/Code/configuration`` when the variable is set but malformed: a typo
  ///   must not silently send logins to the real providers.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(AuthError) -> EmulatorHost? {
    guard let value = environment[environmentVariable], !value.isEmpty else { return nil }
    return try EmulatorHost(parsing: value)
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
