import Foundation

/// Where a refresh ends: its outcome applied to the session, once.
extension SessionActor {
  /// Applies what `flight`'s refresh came to: moves the phase as
  /// ``FlightOutcome/settlement`` decides, reports the refresh, hands the result to the
  /// flight's waiters, and gives `lease` back (or keeps it with tokens still unsaved).
  ///
  /// The only place a refresh moves the phase and the only place its lease is released, and
  /// both awaited here: no release is left to an unstructured task.
  func apply(_ outcome: FlightOutcome, to flight: RefreshFlight, lease: (any RefreshLease)?)
    async
  {
    let result: Result<Credential, any Error>
    switch outcome.settlement {
    case .recover(let credential, let adopted):
      if adopted { flight.adopted = true }
      await recovered()
      result = .success(credential)
    case .degrade(let error, let retryAfter, let unsaved, let serving):
      let failure = await degrade(
        error, retryAfter: retryAfter, unsaved: unsaved.resolved(previous: phase.unsaved))
      result = serving.map { .success($0) } ?? .failure(failure)
    case .end(let reason, let error, let storedCopy):
      await endSession(reason, waitersGet: error, storedCopy: storedCopy)
      result = .failure(error ?? AuthError.signedOut(reason, provider: key.provider))
    case .stay(let error):
      result = .failure(error)
    }
    if let observer = environment.observer {
      let reported: RefreshEventOutcome
      switch result {
      case .success: reported = flight.adopted ? .adopted : .refreshed
      case .failure: reported = phase.isLive ? .degraded : .signedOut
      }
      observer.report(
        .refreshed(
          provider: key.provider, outcome: reported, duration: flight.elapsed(),
          leaseWait: flight.leaseWait),
        subject: key.subject)
    }
    // Tokens still unsaved keep the lease until a later attempt saves them (another replica
    // could take a released lease, read the stored record, and spend the refresh token these
    // replaced); kept before the flight ends, so that a flight started for them at once finds
    // it.
    let kept = lease.map { life.keep($0) } ?? false
    // A flight the session ended with itself (signed out) released its waiters then.
    if life.land(flight) {
      flight.cancelTimers()
      for waiter in flight.waiters { waiter.resolve(result) }
    }
    // Only now: the result is persisted, so the callers need not wait for the release's round
    // trip (with a shared store it competes with every other replica waking to the result).
    if !kept { await lease?.release() }
  }
}
