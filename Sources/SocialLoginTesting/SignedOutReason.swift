import SocialLogin

extension SessionActor {
  /// What the session's next caller is told: the ``SignOutReason`` of the
  /// ``AuthError/Code/signedOut`` error ``SessionActor/freshAccessToken(minimumTTL:)`` throws,
  /// or `nil` when it serves a token (or fails for another reason). A test asserts on the
  /// reason a caller sees, not only on ``SessionActor/currentState``.
  ///
  /// ```swift
  /// #expect(await session.signedOutReasonForNextCaller() == .signedOutByOperator)
  /// ```
  public func signedOutReasonForNextCaller() async -> SignOutReason? {
    do {
      _ = try await freshAccessToken()
      return nil
    } catch let error as AuthError where error.code == .signedOut {
      return error.signOutReason
    } catch {
      return nil
    }
  }
}
