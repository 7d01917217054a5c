import Foundation

/// The parameters a provider sent back to the redirect URI.
public struct AuthorizationCallback: Hashable, Sendable {
  /// The callback's query (or fragment) parameters in order, duplicates kept.
  public var parameters: [URLQueryItem]

  /// Creates a callback from parameters.
  public init(parameters: [URLQueryItem]) { self.parameters = parameters }

  /// Parses the query of a callback URL with the one callback decoder
  /// (``init(query:)``: `+` is a space, as browsers encode forms).
  public init(url: URL) throws {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      throw AuthError(.invalidCallback, "The callback URL could not be parsed.")
    }
    self.init(query: components.percentEncodedQuery ?? "")
  }

  /// The single value of `name`; throws when the parameter appears more than once.
  public func value(_ name: String) throws -> String? {
    let values = parameters.filter { $0.name == name }
    guard values.count <= 1 else {
      throw AuthError(.invalidCallback, "The callback repeats the '\(name)' parameter.")
    }
    return values.first?.value
  }
}
