import Foundation

/// The refresh in flight for one refresh token, and the callers waiting for it.
///
/// A class, allocated only while a refresh runs: an idle session then stores one pointer,
/// not the whole record, and joining callers append to the waiter list in place. Only the
/// session actor touches it.
final class RefreshFlight {
  let refreshToken: Secret?
  var waiters: [RefreshWaiter]
  /// Ends the flight's waiters at the policy's refresh deadline.
  var deadline: Task<Void, Never>?
  /// Set once the deadline passed: the refresh goes on, callers no longer wait for it.
  var overdue: AuthError?
  /// The callers that gave a timeout, each with when it gives up (time since the flight
  /// started), served by one timer for the earliest: a thousand callers with a timeout cost
  /// one sleeping task, not a thousand (each a task, a system timer and a cancellation).
  var timeouts: [(waiter: RefreshWaiter, at: Duration, timeout: Duration)] = []
  /// The timer for the earliest entry of `timeouts`, and when it fires.
  var timeoutTimer: (task: Task<Void, Never>, at: Duration)?
  /// Time since the flight started, on the session's clock.
  let elapsed: @Sendable () -> Duration
  /// Set when the flight ended with a credential another process stored (for its event).
  var adopted = false
  /// How long the flight waited for the store's refresh lease (measured only with an
  /// observer, for its event).
  var leaseWait: Duration = .zero

  init(refreshToken: Secret?, waiter: RefreshWaiter, elapsed: @escaping @Sendable () -> Duration) {
    self.refreshToken = refreshToken
    self.elapsed = elapsed
    waiters = [waiter]
  }

  /// Stops the flight's timers (it ended, or its waiters were released).
  func cancelTimers() {
    deadline?.cancel()
    timeoutTimer?.task.cancel()
    timeoutTimer = nil
    timeouts = []
  }
}

/// A flight named by a timer without keeping it alive: a timer that fires after its flight
/// ended finds `nil` (never a newer flight, as a reused address could).
///
/// `@unchecked Sendable` because `RefreshFlight` is not: the timer's closure only carries the
/// reference back into the session actor, and loading a `weak` reference is atomic in Swift;
/// the flight's fields are read and written on the actor alone.
struct FlightReference: @unchecked Sendable {
  weak var flight: RefreshFlight?

  init(_ flight: RefreshFlight) { self.flight = flight }
}

/// How a caller joined: the credential serves as it is, or the caller waits for the refresh.
enum RefreshJoin: Sendable {
  case ready(Credential)
  case waiting(RefreshWaiter)
}

/// Unwinds the refresh pipeline from deep inside it (a store read that failed, or found the
/// session deleted) with the refresh's outcome. Nothing has moved the phase: the outcome is
/// applied where the flight ends, like every other.
private struct Settled: Error {
  let outcome: FlightOutcome

  init(_ outcome: FlightOutcome) { self.outcome = outcome }
}

extension SessionActor {
  /// The credential when it serves, otherwise a place among the waiters of the refresh: what
  /// ``SessionPhase/decide(_:)`` says, carried out.
  func joinRefresh(minimumTTL: Duration, timeout: Duration?, force: Bool = false)
    async throws -> RefreshJoin
  {
    if life.rereadDue { await rereadStoreIfDue() }
    let required = max(minimumTTL, policy.leeway).timeInterval
    let now = clock.wallTime
    let decision = phase.decide(
      RefreshQuestion(
        credential: record.credential, now: now, minimumTTL: required,
        providerRefreshes: provider.capabilities.contains(.refresh),
        lifetimeEnds: Self.lifetimeDeadline(of: record, policy: policy), force: force))
    let flight: RefreshFlight
    let waiter = RefreshWaiter()
    switch decision {
    case .serve:
      return .ready(record.credential)
    case .signedOut(let reason):
      throw AuthError.signedOut(reason, provider: key.provider)
    case .end(let reason):
      await endSession(reason)
      try checkStillSignedIn()
      throw AuthError.signedOut(reason, provider: key.provider)
    case .failFast(let error):
      throw error
    case .cannotRefresh:
      throw AuthError(
        .unsupported,
        "This \(key.provider) session cannot be refreshed (the provider issued no refresh "
          + "token, or cannot refresh); sign in again for new tokens.",
        provider: key.provider)
    case .stuck(let overdue, let serve):
      // Still stuck at the retry time counts as another failure, which moves the retry time
      // on (and keeps the automatic refresh from waking again at once).
      let error = await degrade(overdue, retryAfter: nil, unsaved: phase.unsaved)
      if serve { return .ready(record.credential) }
      throw error
    case .join(let current):
      flight = current
      flight.waiters.append(waiter)
      report(.refreshJoined(provider: key.provider))
    case .start:
      flight = startFlight(for: waiter, minimumTTL: required)
    }
    if let timeout {
      let at = flight.elapsed() + timeout
      flight.timeouts.append((waiter, at, timeout))
      if flight.timeoutTimer.map({ at < $0.at }) ?? true { armTimeouts(flight, at: at) }
    }
    return .waiting(waiter)
  }

  /// Starts the refresh for the current refresh token, with its first waiter.
  private func startFlight(for waiter: RefreshWaiter, minimumTTL: TimeInterval) -> RefreshFlight {
    let started = RefreshFlight(
      refreshToken: record.credential.refreshToken, waiter: waiter,
      elapsed: clock.stopwatch())
    life.start(started)
    if let limit = policy.refreshDeadline {
      let reference = FlightReference(started)
      started.deadline = clock.startTimer(after: limit) { [weak self] in
        Task { await self?.flightOverdue(reference, limit: limit) }
      }
    }
    let flights = environment.runningFlights
    let number = flights.reserve()
    let task = Task {
      await self.runFlight(started, minimumTTL: minimumTTL)
      flights.ended(number, of: ObjectIdentifier(self))
    }
    flights.list(task, number: number, of: ObjectIdentifier(self))
    return started
  }

  /// (Re)arms the flight's one timeout timer for `at`.
  private func armTimeouts(_ current: RefreshFlight, at: Duration) {
    current.timeoutTimer?.task.cancel()
    let reference = FlightReference(current)
    let task = clock.startTimer(after: max(.zero, at - current.elapsed())) { [weak self] in
      Task { await self?.expireWaiters(of: reference) }
    }
    current.timeoutTimer = (task, at)
  }

  /// The timeout timer fired: ends the waiters whose time is up and re-arms for the next.
  private func expireWaiters(of reference: FlightReference) {
    guard let current = reference.flight, phase.flight === current else { return }
    current.timeoutTimer = nil
    let now = current.elapsed()
    var next: Duration?
    current.timeouts.removeAll { entry in
      guard entry.at <= now else {
        next = min(next ?? entry.at, entry.at)
        return false
      }
      entry.waiter.resolve(
        .failure(
          AuthError(
            .timedOut, "Gave up waiting \(entry.timeout) for the token refresh.",
            provider: key.provider)))
      return true
    }
    if let next { armTimeouts(current, at: next) }
  }

  /// The refresh deadline passed: tells every waiter, and the session degrades until the
  /// refresh ends (it is not cancelled: its tokens may already be issued).
  private func flightOverdue(_ reference: FlightReference, limit: Duration) async {
    guard let current = reference.flight, phase.flight === current, current.overdue == nil
    else { return }
    logger.log(
      .warning, "The token refresh is overdue; it goes on in the background.",
      metadata: metadata)
    let error = await degrade(
      AuthError(
        .timedOut, "The token refresh took longer than \(limit); it goes on in the background.",
        provider: key.provider),
      retryAfter: nil, unsaved: phase.unsaved)
    current.overdue = error
    current.cancelTimers()
    let waiters = current.waiters
    current.waiters = []
    for waiter in waiters { waiter.resolve(.failure(error)) }
  }

  /// Runs the refresh and settles its outcome: the only place a flight's outcome moves the
  /// phase and gives its lease back (``apply(_:to:lease:)``).
  private func runFlight(_ started: RefreshFlight, minimumTTL: TimeInterval) async {
    var lease: (any RefreshLease)?
    let outcome: FlightOutcome
    do {
      outcome = try await performRefresh(minimumTTL: minimumTTL, lease: &lease)
    } catch let settled as Settled {
      outcome = settled.outcome
    } catch {
      outcome = .interrupted(error)
    }
    await apply(outcome, to: started, lease: lease)
  }

  /// The lease kept with unsaved tokens, taken by the flight that will save them; `nil` when
  /// none was kept or it lapsed meanwhile (the store was out of reach for longer than its time
  /// to live: it is given back at once, never this flight's to use).
  private func takeKeptLease() async -> (any RefreshLease)? {
    guard let kept = life.takeKeptLease() else { return nil }
    if await kept.isHeld() { return kept }
    await kept.release()
    return nil
  }

  /// Takes the store's refresh lease for this session (handing it out through `lease`, which
  /// the caller releases) and refreshes; returns what the provider and the store said.
  private func performRefresh(minimumTTL: TimeInterval, lease held: inout (any RefreshLease)?)
    async throws -> FlightOutcome
  {
    // Measured only for an observer: the time until the lease is held or the wait ends.
    let waited = environment.observer == nil ? nil : clock.stopwatch()
    let acquired: LeaseAcquisition
    do {
      defer { if let waited { phase.flight?.leaseWait = waited() } }
      acquired = try await acquireLease(minimumTTL: minimumTTL)
    }
    switch acquired {
    case .adopted(let credential):
      return FlightOutcome(provider: .notAsked, store: .adopted, kept: credential)
    case .held(let lease, let confirmedCurrent):
      held = lease
      return try await refreshHoldingLease(
        minimumTTL: minimumTTL, lease: lease, confirmedCurrent: confirmedCurrent)
    }
  }

  /// What waiting for the refresh lease ended with.
  private enum LeaseAcquisition {
    /// The lease is held; `confirmedCurrent`: the store said the record is still current.
    case held(any RefreshLease, confirmedCurrent: Bool)
    /// Another replica refreshed meanwhile, and its credential serves.
    case adopted(Credential)
  }

  /// Waits for the store's refresh lease, or for a credential another replica stored.
  private func acquireLease(minimumTTL: TimeInterval) async throws -> LeaseAcquisition {
    do {
      if phase.unsaved != nil {
        // Tokens the provider issued are waiting to be saved: only the lease lets us save them,
        // and the flight that could not kept it.
        if let kept = await takeKeptLease() { return .held(kept, confirmedCurrent: false) }
        return .held(try await store.lockRefresh(for: key), confirmedCurrent: false)
      }
      switch try await store.lockRefresh(for: key, unlessNewerThan: record.version) {
      case .acquired(let acquired):
        return .held(acquired, confirmedCurrent: false)
      case .current(let acquired):
        return .held(acquired, confirmedCurrent: true)
      case .superseded(let stored):
        if let credential = try adoptSuperseded(stored, minimumTTL: minimumTTL) {
          return .adopted(credential)
        }
        return .held(try await store.lockRefresh(for: key), confirmedCurrent: false)
      }
    } catch let error as AuthError where error.code == .signedOut {
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      // A shared store that is down (Redis restarting) is a transient failure: degrade and
      // keep the tokens, never sign out for it.
      throw Settled(FlightOutcome(provider: .notAsked, store: .unavailable(error)))
    }
  }

  /// Takes a record another replica stored while this one waited for the lease; returns its
  /// credential when it serves, `nil` when the lease is needed after all (it does not serve,
  /// or the store handed back something that is not newer).
  private func adoptSuperseded(_ stored: StoredSession, minimumTTL: TimeInterval) throws
    -> Credential?
  {
    try checkStillSignedIn()
    guard stored.key == key, stored.version > record.version else { return nil }
    life.take(stored)
    guard record.credential.isValid(at: clock.wallTime, minimumTTL: minimumTTL) else {
      return nil
    }
    logger.log(.debug, "Adopted a credential refreshed elsewhere.", metadata: metadata)
    return record.credential
  }

  /// Refreshes under `lease`, re-reading the store first unless it confirmed, as it granted
  /// the lease, that our record is the stored one (`confirmedCurrent`).
  private func refreshHoldingLease(
    minimumTTL: TimeInterval, lease: any RefreshLease, confirmedCurrent: Bool
  ) async throws -> FlightOutcome {
    try checkStillSignedIn()
    if let pending = phase.unsaved {
      // The provider already issued these; spending the refresh token again would waste them
      // (or fail, if it rotated). Persist them now.
      return try await persist(pending, lease: lease, provider: .notAsked)
    }
    if !confirmedCurrent, try await adoptStoredIfNewer(after: .notAsked),
      record.credential.isValid(at: clock.wallTime, minimumTTL: minimumTTL)
    {
      logger.log(.debug, "Adopted a credential refreshed elsewhere.", metadata: metadata)
      return FlightOutcome(provider: .notAsked, store: .adopted, kept: record.credential)
    }

    var rereadsLeft = 1
    while true {
      let spending = record.credential
      let inheritedLoss = try await recordIntent(toSpend: spending, lease: lease)
      let answer: RefreshOutcome
      do {
        logger.log(.debug, "Refreshing the access token.", metadata: metadata)
        answer = try await environment.observing(key.provider) {
          try await provider.spendRefreshToken(spending)
        }
      } catch is CancellationError {
        throw CancellationError()
      } catch let error as AuthError where error.code == .signedOut {
        throw error
      } catch {
        switch provider.classifyRefreshFailure(error) {
        case .transient(let retryAfter):
          // A lost answer, this one's or the interrupted holder's whose intent this attempt
          // replaced, is kept with the record for whoever spends the token next.
          if (error as? AuthError)?.answerLost == true || inheritedLoss {
            await rememberLostAnswer(evenIfKnown: inheritedLoss)
          }
          return FlightOutcome(provider: .unavailable(error, retryAfter: retryAfter))
        case .refreshTokenInvalid(let classified):
          // An earlier refresh with this token was sent and its answer lost: the provider most
          // likely spent the token then, which is not the user's refresh token expiring.
          let reason = record.refreshAnswerLost == true ? .refreshResponseLost : classified
          let refused = refusal(
            reason, "The provider no longer accepts the refresh token (\(reason)).",
            underlying: error)
          // Someone else (another process) may have spent it first and stored the result.
          if rereadsLeft > 0, try await adoptStoredIfNewer(after: refused) {
            rereadsLeft -= 1
            if record.credential.isValid(at: clock.wallTime, minimumTTL: minimumTTL) {
              logger.log(.info, "Adopted a sibling's rotated credential.", metadata: metadata)
              return FlightOutcome(provider: refused, store: .adopted, kept: record.credential)
            }
            continue
          }
          return FlightOutcome(provider: refused)
        case .terminal(let reason):
          return FlightOutcome(
            provider: refusal(
              reason, "The provider ended the session (\(reason)).", underlying: error))
        }
      }
      // The token endpoint answered with tokens: the refresh token is spent, so whatever the
      // provider found wrong with them, they are persisted (or held) before anything else.
      return try await keep(answer, spent: spending, lease: lease)
    }
  }

  /// Keeps the tokens a token endpoint issued: persists them (or holds them unpersisted), with
  /// a problem that does not question whose they are. Tokens for another account are a
  /// refusal instead: they are never stored as this account's.
  private func keep(_ answer: RefreshOutcome, spent: Credential, lease: any RefreshLease)
    async throws -> FlightOutcome
  {
    if case .identityMismatch(let problem)? = answer.problem {
      try checkStillSignedIn()
      logger.log(
        .error, "The refresh answered with tokens for another account; signing out.",
        metadata: metadata)
      return FlightOutcome(
        provider: refusal(
          .identityMismatch,
          "The refresh answered with tokens for another account (\(SignOutReason.identityMismatch)).",
          underlying: problem))
    }
    return try await persist(
      merge(answer.credential, into: spent), lease: lease,
      provider: .issued(problem: answer.problem?.error))
  }

  /// Records in the store that this flight is about to spend `credential`'s refresh token
  /// (``SpendIntent``), after noting whether a previous holder of the lease was interrupted
  /// spending the same token: its answer may be lost, so a refusal of the token is then
  /// ``SignOutReason/refreshResponseLost``. Returns whether it was: this attempt's intent
  /// replaces the interrupted one, so if the attempt ends without an answer the loss is then
  /// written with the record (not before: a write now would wake every follower for nothing).
  /// A store that cannot record the intent (out of reach, or the lease lapsed) settles the
  /// flight before anything is spent.
  private func recordIntent(toSpend credential: Credential, lease: any RefreshLease)
    async throws -> Bool
  {
    guard let refreshToken = credential.refreshToken else { return false }
    let digest = SpendIntent.digest(of: refreshToken)
    let inherited: Bool
    if let interrupted = await lease.interruptedIntent(),
      interrupted.refreshTokenDigest == digest
    {
      logger.log(
        .warning,
        "A refresh with this refresh token was interrupted before its answer was saved; "
          + "the provider may have spent it.", metadata: metadata)
      life.rememberAnswerLost()
      inherited = true
    } else {
      inherited = false
    }
    do {
      try await lease.recordIntent(toSpend: digest)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw Settled(FlightOutcome(provider: .notAsked, store: .unavailable(error)))
    }
    return inherited
  }

  /// The refresh request was sent and its answer never came: remembers it with the record
  /// (persisted, so that another process or the next run of a CLI knows too), so that if the
  /// provider then refuses this refresh token the sign-out says
  /// ``SignOutReason/refreshResponseLost``. Kept in memory when the store cannot take it.
  ///
  /// - Parameter evenIfKnown: Write it even though the record in memory says so already (it
  ///   was noted in memory only, from an interrupted holder's intent).
  private func rememberLostAnswer(evenIfKnown: Bool = false) async {
    guard evenIfKnown || record.refreshAnswerLost != true, phase.isLive else { return }
    var next = record
    next.refreshAnswerLost = true
    do {
      life.take(try await store.save(next, expectedVersion: record.version))
    } catch {
      life.rememberAnswerLost()
    }
  }

  /// Keeps what the provider did not resend: a refresh response without a refresh token
  /// (LINE, Facebook) or without an ID token (most providers) leaves the old ones in place.
  private func merge(_ issued: Credential, into old: Credential) -> Credential {
    var merged = issued
    if merged.refreshToken == nil { merged.refreshToken = old.refreshToken }
    if merged.idToken == nil { merged.idToken = old.idToken }
    if merged.tokenSecret == nil { merged.tokenSecret = old.tokenSecret }
    if merged.scopes.isEmpty { merged.scopes = old.scopes }
    return merged
  }

  /// Re-reads the store; adopts its record when it differs from ours. Returns whether it did.
  /// A store out of reach, or a record deleted by another holder, settles the refresh
  /// (``Settled``) with what `provider` said so far.
  private func adoptStoredIfNewer(after provider: FlightOutcome.Provider) async throws -> Bool {
    let stored: StoredSession?
    do {
      stored = try await store.load(key)
    } catch let error as AuthError where error.code == .storageCorrupt {
      // The store set the unreadable record aside; ours is intact, so write it back.
      logger.log(.warning, "Stored session was unreadable; rewriting it.", metadata: metadata)
      var fresh = record
      fresh.version = 0
      life.take(try await store.save(fresh, expectedVersion: nil))
      return false
    } catch {
      throw Settled(FlightOutcome(provider: provider, store: .unavailable(error)))
    }
    try checkStillSignedIn()
    guard let stored else {
      // Deleted by someone sharing the store: that is a sign-out elsewhere, for the reason
      // the store kept with the deletion.
      throw Settled(FlightOutcome(provider: provider, store: .deleted(await deletionReason())))
    }
    guard stored.version != record.version || stored.credential != record.credential else {
      return false
    }
    life.take(stored)
    return true
  }

  /// Persists `credential` (compare-and-swap on the version we hold) and returns what the
  /// store said: saved (the credential serves), unavailable (it is kept in memory, unpublished,
  /// until a later attempt saves it), or a newer record written under a later lease.
  private func persist(
    _ credential: Credential, lease: any RefreshLease, provider: FlightOutcome.Provider
  ) async throws -> FlightOutcome {
    try checkStillSignedIn()
    var next = record
    next.credential = credential
    next.refreshAnswerLost = nil
    var fenced: (current: StoredSession?, conflict: AuthError)?
    var failures = 0
    while true {
      do {
        fenced = try await save(next, holding: lease)
        break
      } catch {
        failures += 1
        // A shared store failing over cuts the write in flight (or refuses it while its master
        // moves): try again at once while the lease is still ours. The store's client waits
        // for the new master within its own timeout; a write that did land before the cut
        // comes back as a conflict, which the lease settles.
        if failures <= Self.immediateSaveRetries, (error as? AuthError)?.code == .storageFailed,
          await lease.isHeld(), phase.isLive
        {
          logger.log(
            .warning, "Saving the refreshed credential failed; trying again.", metadata: metadata)
          continue
        }
        let wrapped = AuthError(
          .storageFailed, "The refreshed credential could not be saved; it is kept in memory.",
          provider: key.provider, underlying: error)
        return FlightOutcome(provider: provider, store: .unavailable(wrapped), kept: credential)
      }
    }
    if let fenced {
      return await adoptAfterLostLease(fenced.current, conflict: fenced.conflict, after: provider)
    }
    if case .issued(let problem?) = provider {
      logger.log(
        .warning, "Access token refreshed; the new tokens could not be fully checked.",
        metadata: metadata.merging(["error": problem.code.rawValue]) { $1 })
    } else {
      logger.log(.info, "Access token refreshed.", metadata: metadata)
    }
    return FlightOutcome(provider: provider, store: .saved, kept: credential)
  }

  /// How many times a failed save of refreshed tokens is tried again at once, under the lease,
  /// before the session degrades holding them (and the lease) until a later attempt.
  static var immediateSaveRetries: Int { 2 }

  /// One compare-and-swap write of `next` under `lease`: sets ``record`` to what was stored, or
  /// returns the newer record and the conflict when the lease lapsed and someone wrote since.
  private func save(_ next: StoredSession, holding lease: any RefreshLease) async throws
    -> (current: StoredSession?, conflict: AuthError)?
  {
    do {
      life.take(try await store.save(next, expectedVersion: record.version))
      return nil
    } catch let error as AuthError where error.code == .storageConflict {
      let current = try await store.load(key)
      if await lease.isHeld() {
        // We hold the refresh lease and the provider just issued these tokens, so they are
        // the newest: a writer that skipped the lease (or our own write, which landed before
        // the connection carrying its answer was cut) loses.
        life.take(try await store.save(next, expectedVersion: current?.version))
        return nil
      }
      // Fenced: our lease lapsed (we stalled) and whoever wrote since held it after us, so
      // the stored credential is newer than ours. Adopt it; never overwrite it.
      return (current, error)
    }
  }

  /// After a lapsed lease lost the compare-and-swap: takes the record that the newer lease
  /// holder stored. The tokens this flight got are dropped: the provider issued newer ones
  /// since (or the newer holder found a valid credential without refreshing).
  private func adoptAfterLostLease(
    _ current: StoredSession?, conflict: AuthError, after provider: FlightOutcome.Provider
  ) async -> FlightOutcome {
    guard let current else {
      return FlightOutcome(provider: provider, store: .deleted(await deletionReason()))
    }
    life.take(current)
    logger.log(
      .warning, "The refresh lease lapsed before the result was saved; adopted the newer record.",
      metadata: metadata)
    guard record.credential.isValid(at: clock.wallTime, minimumTTL: 0) else {
      return FlightOutcome(provider: provider, store: .fenced(conflict))
    }
    return FlightOutcome(provider: provider, store: .adopted, kept: record.credential)
  }

  /// The provider's definitive word: `reason`, and the ``AuthError/Code/signedOut`` error the
  /// callers waiting for this refresh get.
  private func refusal(_ reason: SignOutReason, _ message: String, underlying: any Error)
    -> FlightOutcome.Provider
  {
    .refused(
      reason,
      AuthError(
        .signedOut, message, provider: key.provider, signOutReason: reason,
        underlying: underlying))
  }

  /// The reason another holder of the store deleted this session with
  /// (``SignOutReason/storageLost`` when it kept none).
  private func deletionReason() async -> SignOutReason {
    ((try? await store.deletionReason(for: key)) ?? nil) ?? .storageLost
  }

  var metadata: [String: String] { ["session": key.description] }
}
