import Foundation

/// A session's phase and record, moved only by the transitions below.
///
/// Both are `private(set)`: another file of the module can read them but not assign them, so
/// the compiler, not a comment, keeps every move of the phase (healthy, degraded, refreshing,
/// signed out) and of the record (what the store holds) in one place. The transitions are
/// plain value updates: the ``SessionActor`` that owns a `SessionLife` shows each change to
/// callers outside it (the fast path's token, and publishing where the state changed).
struct SessionLife {
  /// Where the session is in its life.
  private(set) var phase = SessionPhase.fresh
  /// The record as last read from or written to the store. Its `signedInAt` never goes back to
  /// `nil` (a record written before the field existed, adopted from the store): the session
  /// keeps the time it counts its life from.
  private(set) var record: StoredSession

  /// Whether the store must be re-read before the next caller is served: its change feed was
  /// cut, so a sign-out or a newer record elsewhere may have been missed.
  var rereadDue: Bool { phase.rereadDue }
  /// The re-read of the store running for ``rereadDue``, which every caller arriving meanwhile
  /// awaits instead of loading the record again (`nil` but while it runs).
  var reread: Task<Void, Never>? {
    if case .rereading(let running)? = phase.storeCheck { return running }
    return nil
  }

  init(record: StoredSession) {
    self.record = record
  }

  /// Whether `other` holds another grant (issue or expiry time) than this one: a lifetime
  /// the session has not judged yet.
  func grantDiffers(from other: SessionLife) -> Bool {
    record.credential.issuedAt != other.record.credential.issuedAt
      || record.credential.expiresAt != other.record.credential.expiresAt
  }

  // MARK: The record

  /// Takes `stored` as the record: what the store now holds (written by this session or
  /// adopted from another holder). Keeps the session's `signedInAt` when `stored` has none.
  mutating func take(_ stored: StoredSession) {
    let signedInAt = record.signedInAt
    record = stored
    if record.signedInAt == nil { record.signedInAt = signedInAt }
  }

  /// Remembers in memory that a refresh answer was lost, when the store could not take it.
  mutating func rememberAnswerLost() {
    record.refreshAnswerLost = true
  }

  // MARK: The phase

  /// Makes `flight` the refresh in flight (the session is live).
  mutating func start(_ flight: RefreshFlight) {
    phase = phase.with(flight: flight)
  }

  /// Ends `flight`; returns whether it was still the session's flight (a session signed out
  /// meanwhile released its waiters then).
  mutating func land(_ flight: RefreshFlight) -> Bool {
    guard phase.flight === flight else { return false }
    phase = phase.with(flight: nil)
    return true
  }

  /// Back to healthy; returns the health it left, or `nil` when the session is signed out
  /// (it stays so).
  mutating func recover() -> SessionHealth? {
    guard case .live(let health, _, _) = phase else { return nil }
    phase = phase.with(health: .healthy)
    return health
  }

  /// Degraded with `degradation`; returns the health it left, or `nil` when the session is
  /// signed out (it stays so).
  mutating func degrade(to degradation: Degradation) -> SessionHealth? {
    guard case .live(let health, _, _) = phase else { return nil }
    phase = phase.with(health: .degraded(degradation))
    return health
  }

  /// Signed out for `reason`, for good; returns the health and flight it left, or `nil` when
  /// it was signed out already. No re-read is due any more.
  mutating func signOut(_ reason: SignOutReason) -> (SessionHealth, RefreshFlight?)? {
    guard case .live(let health, let flight, _) = phase else { return nil }
    phase = .signedOut(reason)
    return (health, flight)
  }

  /// Keeps `lease` with the unsaved tokens of a degraded session that holds no lease yet;
  /// returns whether it did.
  mutating func keep(_ lease: any RefreshLease) -> Bool {
    guard case .live(.degraded(let degradation), _, _) = phase,
      degradation.unsaved != nil, degradation.lease == nil
    else { return false }
    phase = phase.with(health: .degraded(degradation.keeping(lease)))
    return true
  }

  /// Takes the lease kept with unsaved tokens, if any, for the flight that will save them.
  mutating func takeKeptLease() -> (any RefreshLease)? {
    guard case .live(.degraded(let degradation), _, _) = phase,
      let kept = degradation.lease
    else { return nil }
    phase = phase.with(health: .degraded(degradation.keeping(nil)))
    return kept
  }

  // MARK: Re-reading the store

  /// Makes the next caller of a live session that follows the store re-read it first (one
  /// already due or running stays so).
  mutating func mustReread() {
    guard case .following? = phase.storeCheck else { return }
    phase = phase.with(store: .due)
  }

  /// `running` is the re-read of the store, due, that every caller now awaits.
  mutating func rereading(_ running: Task<Void, Never>) {
    guard case .due? = phase.storeCheck else { return }
    phase = phase.with(store: .rereading(running))
  }

  /// The store was read: the session follows it again.
  mutating func rereadDone() {
    guard phase.rereadDue else { return }
    phase = phase.with(store: .following)
  }

  /// `running` ended: if it could not read the store, the re-read is due again.
  mutating func rereadEnded(_ running: Task<Void, Never>) {
    guard case .rereading(let current)? = phase.storeCheck, current == running else { return }
    phase = phase.with(store: .due)
  }
}
