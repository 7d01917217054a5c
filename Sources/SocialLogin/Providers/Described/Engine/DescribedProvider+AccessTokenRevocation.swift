extension DescribedProvider {
  /// ``RevocationStyle/accessToken``: POSTs `access_token` with the client's credentials to
  /// the endpoint named `revoke`; any 2xx (LINE answers an empty 200) is success, and an
  /// error never shows the token or the secret.
  func revokeAccessToken(_ credential: Credential) async throws {
    let operation = "The \(description.displayName) revocation"
    let token = credential.accessToken.revealed
    let (response, now) = try await postForm(
      to: try endpoint("revoke"), fields: [("access_token", token)], operation: operation)
    guard !(200..<300).contains(response.status) else { return }
    let secrets = [token] + (configuration.clientSecret.map { [$0.revealed] } ?? [])
    throw DescribedAnswers.failure(
      response, object: DescribedAnswers.object(of: response), description: description,
      operation: operation, now: now
    ).masking(secrets)
  }
}
