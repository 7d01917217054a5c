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

  /// Parses an `application/x-www-form-urlencoded` POST body with the one callback decoder:
  /// the callback of a `response_mode=form_post` login (Sign in with Apple posts `code`,
  /// `state`, `id_token` and, on the first authorization only, `user`).
  ///
  /// ```swift
  /// let callback = AuthorizationCallback(formBody: String(decoding: request.body, as: UTF8.self))
  /// let session = try await login.completeLogin(callback: callback, expectedState: cookie)
  /// ```
  public init(formBody: String) {
    self.init(query: formBody)
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
