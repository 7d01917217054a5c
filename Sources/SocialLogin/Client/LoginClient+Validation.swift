extension LoginClient {
  /// Checks every provider's own credentials against the provider, without any user's token,
  /// and throws when a provider rejected them: call it at start-up so a wrong secret stops
  /// the deployment instead of answering 401 to every user.
  ///
  /// Each provider runs its ``LoginProvider/validateConfiguration()`` concurrently:
  /// Facebook asks for an app access token with the app id and secret, X (an OAuth 2.0
  /// confidential client) asks for a client-credentials token, LINE asks for a channel
  /// access token with the channel id and secret, and Firebase reads the project
  /// configuration with the API key. Providers that cannot be checked (an X public client, a
  /// configuration without a secret, an OIDC provider, your own provider) are
  /// ``ConfigurationCheck/notCheckable(reason:)``.
  ///
  /// A provider that could not be asked (network, timeout, 5xx, 429) does not throw: it is in
  /// the returned report's ``ConfigurationReport/unreachable``, so a provider's outage does not
  /// keep your service from starting. Log those and carry on, or retry, as you prefer.
  ///
  /// ```swift
  /// let client = try LoginClient(providers: providers, store: store)
  /// let report = try await client.validateConfiguration()  // throws for a wrong secret
  /// for error in report.unreachable { logger.warning("not checked: \(error)") }
  /// ```
  ///
  /// - Returns: The report of every provider (discardable).
  /// - Throws: ``AuthError/Code/configuration`` when at least one provider rejected its
  ///   credentials: the message lists each rejection, which names its setting (for example
  ///   `FacebookConfiguration.appSecret`); ``AuthError/provider`` is the provider when only
  ///   one failed. `CancellationError` when the task is cancelled.
  @discardableResult
  public func validateConfiguration() async throws -> ConfigurationReport {
    let report = await configurationReport()
    try Task.checkCancellation()
    let rejected = report.rejected
    guard let first = rejected.first else { return report }
    if rejected.count == 1, first.code == .configuration { throw first }
    throw AuthError(
      .configuration,
      "\(rejected.count == 1 ? "A provider" : "\(rejected.count) providers") rejected the "
        + "app's configuration: "
        + rejected.map { "[\($0.provider?.rawValue ?? "?")] \($0.message)" }.joined(
          separator: " "),
      provider: rejected.count == 1 ? first.provider : nil, underlying: first)
  }

  /// Every provider's ``LoginProvider/validateConfiguration()``, run concurrently, as a
  /// report; nothing throws (a failed check is ``ConfigurationCheck/failed(_:)``).
  ///
  /// ```swift
  /// let report = await client.configurationReport()
  /// print(report.accepted, report.rejected, report.unreachable)
  /// ```
  public func configurationReport() async -> ConfigurationReport {
    await withTaskGroup(of: (ProviderID, ConfigurationCheck).self) { group in
      for (id, provider) in providers {
        group.addTask {
          do {
            return (id, try await provider.validateConfiguration())
          } catch let error as AuthError {
            var error = error
            if error.provider == nil { error.provider = id }
            return (id, .failed(error))
          } catch {
            return (
              id,
              .failed(
                AuthError(
                  .network,
                  "The configuration check of '\(id)' did not finish (\(type(of: error))).",
                  provider: id, underlying: error))
            )
          }
        }
      }
      var checks: [ProviderID: ConfigurationCheck] = [:]
      for await (id, check) in group { checks[id] = check }
      return ConfigurationReport(checks: checks)
    }
  }
}
