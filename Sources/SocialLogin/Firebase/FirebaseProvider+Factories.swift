import Foundation

extension LoginProvider where Self == FirebaseProvider {
  /// Firebase Authentication for project `projectID`, as a provider of a ``LoginClient``.
  ///
  /// ```swift
  /// let login = try LoginClient(providers: [.firebase(apiKey: key, projectID: "my-app")], store: store)
  /// ```
  ///
  /// - Parameters:
  ///   - apiKey: The project's Web API key.
  ///   - projectID: The project id.
  ///   - tenantID: The tenant, for multi-tenant projects.
  ///   - emulatorHost: The Firebase Auth emulator, a loopback host; `nil` reads
  ///     `FIREBASE_AUTH_EMULATOR_HOST` from `environment`, else `SOCIALLOGIN_EMULATOR_HOST`.
  ///   - environment: Where those variables are read: the process's environment
  ///     by default; a service or test passes `[:]` so that no process variable can move where
  ///     requests go.
  ///   - acceptsUnsignedEmulatorTokens: Whether the emulator's unsigned ID tokens verify
  ///     (``FirebaseProvider/Configuration/acceptsUnsignedEmulatorTokens``); tests only.
  ///   - transport: How to reach Firebase.
  ///   - clock: Time for token expiry and ID-token checks.
  public static func firebase(
    apiKey: String,
    projectID: String,
    tenantID: String? = nil,
    emulatorHost: EmulatorHost? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    acceptsUnsignedEmulatorTokens: Bool = false,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) -> FirebaseProvider {
    var configuration = FirebaseProvider.Configuration(
      apiKey: apiKey, projectID: projectID, tenantID: tenantID, emulatorHost: emulatorHost,
      environment: environment)
    configuration.acceptsUnsignedEmulatorTokens = acceptsUnsignedEmulatorTokens
    return FirebaseProvider(configuration: configuration, transport: transport, clock: clock)
  }
}
