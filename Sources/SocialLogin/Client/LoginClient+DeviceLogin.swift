import Foundation

extension LoginClient {
  /// Signs a user in on a machine without a browser (a server over SSH, a container, a TV):
  /// shows a code, the user approves on their phone, and the registered session comes back
  /// like from any other login.
  ///
  /// The steps: the provider issues a device code → `show` gets the ``DeviceLoginPrompt``
  /// (address, user code, expiry) → the client polls on its clock, never faster than the
  /// provider's interval, 5 s slower for this and every later poll after each `slow_down`,
  /// with a doubled interval after a network or server failure, and never past the code's
  /// expiry → the credential is verified, the identity fetched, the session persisted and
  /// ``AuthState/signedIn`` published on ``events``.
  ///
  /// `show` is a callback and not an `AsyncSequence` of events: there is exactly one thing
  /// to show and one result, so the call reads top to bottom, its errors stay thrown
  /// ``AuthError``s, and cancelling the calling task ends it (no stream to drain or forget).
  /// Polling starts only when `show` returns, so the user never approves a code the caller
  /// has not shown yet; an error thrown by `show` ends the login with that error.
  ///
  /// ```swift
  /// let session = try await client.deviceLogin("corp") { prompt in
  ///   print("Open \(prompt.verificationURI) and enter \(prompt.userCode)")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - providerID: A registered provider that adopts ``DeviceLoginProvider``.
  ///   - scopes: The scopes to request; the provider's configured scopes when `nil`.
  ///   - show: Shows the prompt to the user; called once, before polling.
  /// - Returns: The live session for the account that approved.
  /// - Throws: ``AuthError``: ``AuthError/Code/unsupported`` when the provider has no device
  ///   login, ``AuthError/Code/accessDenied`` when the user declined,
  ///   ``AuthError/Code/deviceCodeExpired`` when the code expired,
  ///   ``AuthError/Code/configuration`` when the provider does not allow the grant for the
  ///   app (`device_flow_disabled`), the provider's and store's errors; or
  ///   `CancellationError`.
  public func deviceLogin(
    _ providerID: ProviderID, scopes: [String]? = nil,
    show: (DeviceLoginPrompt) async throws -> Void
  ) async throws -> SessionActor {
    let provider = try provider(providerID)
    guard let device = provider as? any DeviceLoginProvider else {
      throw AuthError(
        .unsupported,
        "The provider '\(providerID)' has no device login; sign in through a browser instead.",
        provider: providerID)
    }
    try Task.checkCancellation()
    environment.observer?.observe(.loginStarted(provider: providerID))
    let session: (SessionActor) -> SessionActor = { $0 }
    return try await observingLogin(provider: providerID, session: session) {
      let authorization = try await environment.observing(providerID) {
        try await device.startDeviceLogin(scopes: scopes)
      }
      try await show(DeviceLoginPrompt(provider: providerID, authorization: authorization))
      let credential = try await DevicePolling.run(
        authorization, clock: clock, provider: providerID
      ) {
        try await environment.observing(providerID) {
          try await device.pollDeviceLogin(authorization)
        }
      }
      let identity = try await environment.observing(providerID) {
        try await device.fetchIdentity(for: credential)
      }
      guard identity.provider == providerID else {
        throw AuthError(
          .invalidResponse, "The provider returned an identity for another provider.",
          provider: providerID)
      }
      return try await register(credential: credential, identity: identity)
    }
  }
}
