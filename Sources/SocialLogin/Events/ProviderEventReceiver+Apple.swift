import Foundation

extension ProviderEventReceiver {
  /// `POST /apple/notifications`: ``handleAppleNotification(body:)``. 200 when acted on, and
  /// for a redelivery (so that Apple stops sending it); 400 when it does not verify, is for
  /// an app that is not this service's, or is too old; 503 when the keys or the store failed.
  func appleNotification(_ request: ProviderEventRequest) async -> ProviderEventResponse {
    do {
      let notification = try await handleAppleNotification(body: request.body)
      let kind: ProviderEventKind
      switch notification.kind {
      case .consentRevoked: kind = .consentRevoked
      case .accountDelete: kind = .accountDelete
      case .emailDisabled, .emailEnabled: kind = .emailChanged
      case .other: kind = .unknown
      }
      report(.apple, kind, notification.kind.signOutReason == nil ? .acknowledged : .applied)
      return .empty(200)
    } catch let error as AuthError where error.code == .replayed {
      report(.apple, .unknown, .replayed)
      return .empty(200)
    } catch let error as AuthError
      where [.invalidToken, .invalidResponse, .unknownProvider].contains(error.code)
    {
      logRefusal("apple/notifications", error.message)
      report(.apple, .unknown, .rejected)
      return .json(400, ["error": "invalid_request", "error_description": .string(error.message)])
    } catch {
      report(.apple, .unknown, .failed)
      return .json(503, ["error": "temporarily_unavailable", "error_description": "Failed."])
    }
  }

  /// Verifies a notification Apple posted and acts on it once; what
  /// ``LoginClient/handleAppleNotification(body:seen:)`` documents.
  ///
  /// The app check: the notification's `aud` must be one of the client's Apple client ids
  /// (``AppleProvider/verifyNotification(body:)``), and a session ends only when its ID token
  /// was issued to that app. The replay check: a notification whose `iat` is older than
  /// ``Configuration/maximumSecurityEventAge`` is refused, and its `jti` is kept in ``seen``
  /// until it would be refused anyway (its `exp`, or that age, whichever comes first).
  func handleAppleNotification(body: [UInt8]) async throws -> AppleServerNotification {
    let apple = try client.appleProvider()
    let notification = try await apple.verifyNotification(body: body)
    let leeway = apple.configuration.leeway
    let oldest = notification.issuedAt.addingTimeInterval(configuration.maximumSecurityEventAge)
    guard oldest.addingTimeInterval(leeway) >= apple.clock.wallTime else {
      throw AuthError(
        .invalidToken,
        "The Apple notification was issued more than "
          + "\(Int(configuration.maximumSecurityEventAge)) s ago (its iat).",
        provider: .apple)
    }
    let id = Secret("apple-notification \(notification.clientID) \(notification.notificationID)")
    do {
      try await seen.insert(
        id, expiresAt: min(notification.expiresAt, oldest).addingTimeInterval(leeway))
    } catch let error as AuthError where error.code == .replayed {
      throw AuthError(
        .replayed,
        "This Apple notification (its jti) was handled already; nothing was done again. "
          + "Answer it with 200 so that Apple stops redelivering it.",
        provider: .apple)
    }
    do {
      if let reason = notification.kind.signOutReason {
        try await endAppleSession(notification, reason: reason)
      }
    } catch {
      await forget(id.revealed)
      throw error
    }
    return notification
  }

  /// Ends the session the notification names, unless its ID token was issued to another app.
  private func endAppleSession(_ notification: AppleServerNotification, reason: SignOutReason)
    async throws
  {
    guard
      let session = try await client.loadSession(notification.sessionKey, autoRefresh: false)
    else {
      return
    }
    if let idToken = await session.credential?.idToken,
      let audiences = ExternalToken.unverifiedAudiences(of: idToken.revealed),
      !audiences.contains(notification.clientID)
    {
      client.logger.log(
        .info, "An Apple notification for another app left this session signed in.",
        metadata: ["session": notification.sessionKey.description, "app": notification.clientID])
      return
    }
    // Apple ended the grant itself: nothing is left to revoke.
    _ = try await session.signOut(reason: reason, revoke: false)
  }
}
