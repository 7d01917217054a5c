import Foundation

extension OAuth2Client {
  /// `fields` and headers with the configured client authentication applied:
  /// Basic puts the form-urlencoded id and secret in `Authorization` (RFC 6749 §2.3.1);
  /// post appends `client_id` and `client_secret`; none appends `client_id`.
  func authenticated(
    _ fields: [(String, String)]
  ) throws(AuthError) -> (fields: [(String, String)], headers: HTTPHeaderFields) {
    var headers: HTTPHeaderFields = [:]
    var fields = fields
    switch configuration.clientAuthentication {
    case .clientSecretBasic:
      headers["Authorization"] = FormEncoding.basicAuthorization(
        clientID: configuration.clientID, clientSecret: try clientSecret().revealed)
    case .clientSecretPost:
      let secret = try clientSecret()
      fields.append(("client_id", configuration.clientID))
      fields.append(("client_secret", secret.revealed))
    case .none:
      fields.append(("client_id", configuration.clientID))
    }
    return (fields, headers)
  }

  private func clientSecret() throws(AuthError) -> Secret {
    guard let secret = configuration.clientSecret, !secret.isEmpty else {
      throw AuthError(
        .configuration,
        "Client authentication '\(configuration.clientAuthentication.rawValue)' needs a client "
          + "secret, but none is configured.",
        provider: provider)
    }
    return secret
  }

  /// POSTs an authenticated form to `url` and returns the response, whatever its status.
  /// Transport errors get the provider set; other errors become ``AuthError/Code/network``.
  func post(
    to url: URL, fields: [(String, String)], operation: String
  ) async throws -> TransportResponse {
    let (fields, headers) = try authenticated(fields)
    var request = TransportRequest.form(url: url, fields: fields, headers: headers)
    request.timeout = configuration.requestTimeout
    return try await transport.send(request, operation: operation, provider: provider)
  }

  /// Runs `body`, masking the secret values of `fields` (and the client secret) in any
  /// ``AuthError`` it throws; see ``AuthError/masking(_:)``.
  func maskingSecrets<T>(
    of fields: [(String, String)], _ body: () async throws -> T
  ) async throws -> T {
    do {
      return try await body()
    } catch let error as AuthError {
      var secrets = fields.filter { Redaction.isSecretName($0.0) }.map(\.1)
      if let secret = configuration.clientSecret { secrets.append(secret.revealed) }
      throw error.masking(secrets)
    }
  }
}
