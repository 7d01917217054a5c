import Foundation

/// The session's health transitions, carried out: each moves the phase through ``SessionLife``
/// between healthy, degraded and signed out, and publishes. After a refresh only
/// ``SessionActor/apply(_:to:lease:)`` calls them; elsewhere a new login, a change another
/// holder made, the lifetime's end, a sign-out and an overdue refresh do.
extension SessionActor {
  /// Back to healthy after a success (a refresh saved, a credential adopted from the store, a
  /// new login): drops what the degradation held, re-plans, publishes ``AuthState/signedIn``.
  func recovered() async {
    guard let health = life.recover() else { return }
    if health.degradation != nil { report(.degradationEnded(provider: key.provider)) }
    scheduleRefresh()
    reflect(publishing: true)
    // A new login replaced tokens that waited to be saved: their kept lease goes back, once
    // the new state is out.
    await health.degradation?.lease?.release()
  }

  /// Moves to ``AuthState/degraded(retryAt:)`` after a transient failure, keeping the tokens;
  /// returns the error to throw (`error` stamped with the retry time).
  ///
  /// - Parameter unsaved: Tokens the provider issued that are not saved yet: the ones the
  ///   session already held (pass ``SessionPhase/unsaved``), new ones, or `nil` once saved.
  @discardableResult
  func degrade(_ error: any Error, retryAfter: Date?, unsaved: Credential?) async -> AuthError {
    let failure =
      (error as? AuthError)
      ?? AuthError(
        .network, "The token refresh failed: \(error)", provider: key.provider, underlying: error)
    let degradation = Degradation.after(
      phase.degradation, failing: failure, now: clock.wallTime, retryAfter: retryAfter,
      backoff: policy.backoff, unsaved: unsaved)
    let kept = phase.degradation?.lease
    // A signed-out session stays signed out: the error still reaches the caller.
    guard let health = life.degrade(to: degradation) else { return degradation.lastError }
    if case .healthy = health {
      report(.degraded(provider: key.provider, code: failure.code))
    }
    logger.log(
      .warning, "Token refresh failed; retrying later.",
      metadata: metadata.merging(["error": failure.code.rawValue]) { $1 })
    reflect(publishing: true)
    scheduleRefresh()
    // Saved tokens need no lease kept for them any more: it goes back, once the new state is
    // out.
    if unsaved == nil { await kept?.release() }
    return degradation.lastError
  }

  /// Ends the session for `reason`: forgets its tokens, stops its refreshes, deletes the stored
  /// copy, publishes ``AuthState/signedOut(_:)``, and then releases the callers waiting for a
  /// refresh with `waitersGet` (by default ``AuthError/Code/signedOut`` with `reason`).
  /// Returns the error that kept the stored copy from being deleted, if any.
  ///
  /// The state is published once the delete is done, so a subscriber that sees `.signedOut`
  /// finds the store without the session. `storedCopy` is ``StoredCopy/alreadyGone`` when
  /// the session ends because another holder deleted it.
  @discardableResult
  func endSession(
    _ reason: SignOutReason, waitersGet error: AuthError? = nil,
    storedCopy: StoredCopy = .delete
  ) async -> (any Error)? {
    guard let (health, flight) = life.signOut(reason) else { return nil }
    // Nothing is left to save: the lease kept for unsaved tokens goes back.
    if case .degraded(let degradation) = health { await degradation.lease?.release() }
    if environment.observer != nil {
      if case .degraded = health { report(.degradationEnded(provider: key.provider)) }
      report(.signedOut(provider: key.provider, reason: reason))
    }
    flight?.cancelTimers()
    environment.scheduler.cancel(self)
    logger.log(
      .info, "Session signed out.",
      metadata: metadata.merging(["reason": reason.description]) { $1 })
    var deleteError: (any Error)?
    if case .delete = storedCopy {
      do {
        try await deleteStoredRecord(reason)
      } catch {
        deleteError = error
        logger.log(.error, "The signed-out session could not be deleted.", metadata: metadata)
      }
    }
    reflect(publishing: true)
    if let flight {
      let failure = error ?? AuthError.signedOut(reason, provider: key.provider)
      for waiter in flight.waiters { waiter.resolve(.failure(failure)) }
    }
    return deleteError
  }

  /// Throws ``AuthError/Code/signedOut`` once the session has been signed out, so that work
  /// finishing afterwards persists and publishes nothing.
  func checkStillSignedIn() throws {
    if case .signedOut(let reason) = phase {
      throw AuthError.signedOut(reason, provider: key.provider)
    }
  }

  /// Shows the phase and record to callers outside the actor: the token the fast path may
  /// serve and until when (never while a re-read of the store is due), and (`publishing`) the
  /// phase's state to every stream and to the client's observer.
  func reflect(publishing: Bool) {
    let deadline = phase.servesUntil(
      record.credential, leeway: environment.leewaySeconds,
      lifetimeEnds: Self.lifetimeDeadline(of: record, policy: policy))
    let token = record.credential.accessToken.revealed
    guard publishing else {
      mirror.withLock {
        $0.token = token
        $0.deadline = deadline
      }
      return
    }
    let state = phase.state
    let ended = mirror.withLock { mirror -> [Subscribers<AuthState>.Continuation] in
      mirror.token = token
      mirror.deadline = deadline
      mirror.state = state
      guard case .signedOut = state else {
        mirror.subscribers.yield(state)
        return []
      }
      return mirror.subscribers.finish(with: state)
    }
    // Finishing runs `onTermination`, which takes the lock.
    for continuation in ended { continuation.finish() }
    environment.onStateChange?(key, state)
  }

  /// Delivers `event` to the client's observer, if any, with the session's subject for an
  /// observer that opted in to subjects.
  func report(_ event: AuthEvent) {
    environment.observer?.report(event, subject: key.subject)
  }
}

/// What ending a session does with its stored record.
enum StoredCopy {
  /// Delete it (the session's own sign-out or a provider's verdict).
  case delete
  /// Leave the store alone: another holder deleted the record already.
  case alreadyGone
}
