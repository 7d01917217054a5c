import Foundation

extension FacebookProvider {
  /// `/me` with the configured `fields`: `id`, `name`, `email` and `picture.data.url`.
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    let object = try await graph(
      configuration.meEndpoint,
      query: [("fields", configuration.profileFields.joined(separator: ","))],
      token: credential.accessToken, operation: "The Facebook profile request (/me)")
    return try Self.identity(fromProfile: object)
  }

  /// Builds an identity from a `/me` object.
  static func identity(fromProfile object: [String: JSONValue]) throws(AuthError) -> Identity {
    let subject = object["id"]?.stringValue ?? object["id"]?.int64Value.map(String.init)
    guard let subject, !subject.isEmpty else {
      throw AuthError(
        .invalidResponse, "The Facebook profile has no 'id'.", provider: .facebook)
    }
    let picture = object["picture"]?["data"]?["url"]?.stringValue.flatMap(URL.init(string:))
    return Identity(
      provider: .facebook, subject: subject, name: object["name"]?.stringValue,
      email: object["email"]?.stringValue, pictureURL: picture, rawClaims: .object(object))
  }
}
