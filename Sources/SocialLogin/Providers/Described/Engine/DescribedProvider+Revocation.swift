import Foundation

extension DescribedProvider {
  /// Revokes the credential the way the description's ``RevocationStyle`` says.
  ///
  /// - ``RevocationStyle/none``: nothing to do at the provider; no error.
  /// - ``RevocationStyle/rfc7009``: the refresh token (which ends the grant), then the access
  ///   token.
  ///   With ``ProviderDescription/revocationRules``, as they say (Google: one call, and
  ///   `invalid_token` counts as done).
  /// - ``RevocationStyle/unlink``: Kakao's unlink with the access token.
  /// - ``RevocationStyle/deleteGrant``: GitHub's `DELETE` of the grant, with the client's
  ///   Basic credentials and the access token in a JSON body.
  /// - ``RevocationStyle/grantTypeDelete``: NAVER's `grant_type=delete`, which answers
  ///   "success" even for a dead token, so the token is first made to prove it is alive: a
  ///   refresh (or, without a refresh token, a profile request). A refresh token or access
  ///   token the provider already refuses means the grant is gone, which is what was asked.
  public func revoke(_ credential: Credential) async throws {
    switch description.revocation {
    case .none:
      return
    case .rfc7009 where description.revocationRules != nil:
      try await revokeByRules(credential)
    case .rfc7009:
      var client = try oauth.get()
      var settings = client.configuration
      settings.revocationEndpoint = try endpoint("revoke")
      client = OAuth2Client(
        provider: id, configuration: settings, transport: transport, clock: clock)
      if let refreshToken = credential.refreshToken {
        try await client.revoke(refreshToken, hint: .refreshToken)
      }
      try await client.revoke(credential.accessToken, hint: .accessToken)
    case .unlink:
      let operation = "The \(description.displayName) unlink request"
      var request = TransportRequest.form(
        url: try endpoint("unlink"), fields: [],
        headers: ["Authorization": "Bearer \(credential.accessToken.revealed)"])
      request.headers["Accept"] = "application/json"
      let response = try await transport.send(request, operation: operation, provider: id)
      _ = try DescribedAnswers.apiAnswer(
        response, provider: id, operation: operation, now: clock.wallTime)
    case .deleteGrant:
      try await deleteGrant(credential)
    case .grantTypeDelete:
      try await deleteWithGrantType(credential)
    case .accessToken:
      try await revokeAccessToken(credential)
    }
  }

  private func deleteGrant(_ credential: Credential) async throws {
    guard let secret = configuration.clientSecret else {
      throw AuthError(
        .configuration,
        "Revoking a \(description.displayName) grant needs the client secret (clientSecret).",
        provider: id)
    }
    let operation = "The \(description.displayName) grant deletion"
    var request = try TransportRequest.json(
      method: "DELETE", url: try endpoint("revoke"),
      body: JSONValue.object(["access_token": .string(credential.accessToken.revealed)]),
      headers: [
        "Authorization": FormEncoding.basicAuthorization(
          clientID: configuration.clientID, clientSecret: secret.revealed)
      ])
    request.headers["Accept"] = "application/vnd.github+json"
    let response = try await transport.send(request, operation: operation, provider: id)
    guard !(200..<300).contains(response.status) else { return }
    throw DescribedAnswers.failure(
      response, object: DescribedAnswers.object(of: response), description: description,
      operation: operation, now: clock.wallTime
    ).masking([credential.accessToken.revealed, secret.revealed])
  }

  private func deleteWithGrantType(_ credential: Credential) async throws {
    var live = credential.accessToken
    if credential.refreshToken != nil {
      do {
        live = try await spendRefreshToken(credential).credential.accessToken
      } catch {
        if isDefinitiveRefusal(error) { return }
        throw error
      }
    } else {
      do {
        _ = try await fetchIdentity(for: credential)
      } catch let error as AuthError where error.code == .invalidToken {
        return
      }
    }
    let fields = [("access_token", live.revealed), ("service_provider", "NAVER")]
    let (response, now) = try await postToToken(grantType: "delete", fields: fields)
    let operation = "The \(description.displayName) token deletion"
    let object = DescribedAnswers.object(of: response)
    guard (200..<300).contains(response.status),
      object.flatMap(DescribedAnswers.errorFields) == nil,
      object?["result"]?.stringValue == "success"
    else {
      throw DescribedAnswers.failure(
        response, object: object, description: description, operation: operation, now: now
      ).masking([live.revealed])
    }
  }

  /// Whether a failed refresh says the grant is already gone.
  private func isDefinitiveRefusal(_ error: any Error) -> Bool {
    switch classifyRefreshFailure(error) {
    case .refreshTokenInvalid, .terminal: return true
    case .transient: return false
    }
  }
}
