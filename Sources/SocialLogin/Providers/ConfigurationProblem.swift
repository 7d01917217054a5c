/// A provider whose configuration can be wrong in a way its non-throwing initializer does not
/// refuse (an empty Firebase API key, an empty OpenID Connect client id, a non-loopback
/// emulator variable): ``LoginClient`` refuses it when the provider is registered, so the
/// mistake stops the service at start-up instead of failing every user's request.
protocol ConfigurationProblem: Sendable {
  /// What is wrong with the configuration, as a ``AuthError/Code/configuration`` error
  /// naming the setting; `nil` when nothing is.
  nonisolated var configurationProblem: AuthError? { get }
}

extension OIDCProvider: ConfigurationProblem {
  nonisolated var configurationProblem: AuthError? {
    do {
      try requireClientID()
      return nil
    } catch {
      return error
    }
  }
}

extension FirebaseProvider: ConfigurationProblem {
  nonisolated var configurationProblem: AuthError? {
    if let error = configuration.emulatorHostError { return error }
    if configuration.apiKey.isEmpty {
      return AuthError(
        .configuration,
        "The Firebase API key (FirebaseProvider.Configuration.apiKey) is empty; set the "
          + "project's Web API key.",
        provider: .firebase)
    }
    if configuration.projectID.isEmpty {
      return AuthError(
        .configuration,
        "The Firebase project id (FirebaseProvider.Configuration.projectID) is empty; the "
          + "project's ID tokens could not be verified.",
        provider: .firebase)
    }
    return nil
  }
}
