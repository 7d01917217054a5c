import Foundation

extension FacebookProvider {
  /// `/me` with the configured `fields`: `id`, `name`, `email` and `picture.data.url`.
  ///
  /// With an app secret the request carries `appsecret_proof`; without one (a device that
  /// signs in with the client token alone) it goes with the user token only, which Graph
  /// refuses for apps that turned on "Require App Secret".
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    let operation = "The Facebook profile request (/me)"
    do {
      let object = try await graph(
        configuration.meEndpoint,
        query: [("fields", configuration.profileFields.joined(separator: ","))],
        token: credential.accessToken, operation: operation, proofOptional: true)
      return try Self.identity(fromProfile: object)
    } catch let error as AuthError
      where error.code == .configuration && error.providerCode == "100"
      && configuration.appSecret == nil
    {
      // Graph wants a proof we could not send: the app has "Require App Secret" on.
      throw AuthError(
        .configuration,
        "\(operation) needs an appsecret_proof: the app has \"Require App Secret\" on, so "
          + "configure the app secret (FacebookConfiguration.appSecret) where this runs (on a "
          + "server), or turn the setting off for an app that signs in devices.",
        provider: .facebook, httpStatus: error.httpStatus, providerCode: error.providerCode,
        providerSubcode: error.providerSubcode, underlying: error)
    }
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
