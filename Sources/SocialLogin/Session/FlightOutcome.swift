import Foundation

/// What one refresh came to: what the provider said, what the store said, and the credential
/// the session keeps.
///
/// The refresh pipeline (`SessionActor+Refresh.swift`) only gathers these verdicts; it moves no
/// phase. ``settlement`` decides, as a pure function, what they mean for the session, and the
/// session applies that once, where the flight ends (`SessionActor+Settle.swift`): so a
/// refresh has one outcome, settled in one place, and the decision is unit-tested without an
/// actor, clock or store.
struct FlightOutcome {
  /// What the token endpoint said.
  enum Provider {
    /// Not asked: the store held a credential that serves, tokens it issued earlier were being
    /// saved, or the store could not be read before spending the refresh token.
    case notAsked
    /// Issued new tokens; `problem` is what could not be checked about them (the session keeps
    /// them, degraded).
    case issued(problem: AuthError?)
    /// Failed transiently (no answer, down, rate-limited): the tokens stay, and the session
    /// asks again at `retryAfter` or after its backoff.
    case unavailable(any Error, retryAfter: Date?)
    /// Said definitively that the session is over (the refresh token is dead, the account is
    /// gone, or the tokens name another account), with the error callers get.
    case refused(SignOutReason, AuthError)
    /// The refresh stopped before any verdict counted: it was cancelled, or the session was
    /// signed out meanwhile. The phase stays; callers get `error`.
    case interrupted(any Error)
  }

  /// What the session's store said.
  enum Store {
    /// Nothing that changes the outcome: not asked, or it holds the record the session has.
    case unchanged
    /// It now holds ``FlightOutcome/kept``, written under the refresh lease.
    case saved
    /// It held a newer record, another holder's, whose credential (``FlightOutcome/kept``)
    /// serves.
    case adopted
    /// It could not be read or written; ``FlightOutcome/kept``, if any, are tokens the
    /// provider issued that wait to be saved.
    case unavailable(any Error)
    /// The refresh lease lapsed before the new tokens were saved, and the newer record it
    /// holds instead does not serve: the conflict is a transient failure.
    case fenced(AuthError)
    /// It no longer holds the session: signed out elsewhere, for this reason.
    case deleted(SignOutReason)
  }

  /// What the token endpoint said.
  var provider: Provider
  /// What the store said.
  var store: Store
  /// The credential the session keeps: the one saved or adopted, which callers get, or tokens
  /// the provider issued that could not be saved yet (never thrown away while the session
  /// lives).
  var kept: Credential?

  init(provider: Provider, store: Store = .unchanged, kept: Credential? = nil) {
    self.provider = provider
    self.store = store
    self.kept = kept
  }

  /// A refresh that stopped before any verdict counted (see ``Provider/interrupted(_:)``).
  static func interrupted(_ error: any Error) -> FlightOutcome {
    FlightOutcome(provider: .interrupted(error))
  }
}

/// What a refresh's outcome does to the session: the decision ``FlightOutcome/settlement``
/// makes, which the session carries out.
enum FlightSettlement {
  /// Healthy again, serving `credential` (stored by another holder when `adopted`).
  case recover(serving: Credential, adopted: Bool)
  /// Degraded for `error`, with `unsaved` tokens waiting to be saved; callers get `serving`
  /// when set (new tokens saved but not fully checked), `error` otherwise.
  case degrade(any Error, retryAfter: Date?, unsaved: UnsavedTokens, serving: Credential?)
  /// Signed out for `reason`; callers get `error` (``AuthError/Code/signedOut`` with the reason
  /// when `nil`); the stored copy is deleted unless another holder deleted it (`storedCopy`).
  case end(SignOutReason, error: AuthError?, storedCopy: StoredCopy)
  /// The phase stays as it is; callers get `error`.
  case stay(any Error)
}

/// Which tokens a degraded session holds unsaved after a refresh.
enum UnsavedTokens {
  /// The ones it held before, if any (a failure that changed nothing about them).
  case same
  /// None: the session's tokens are saved.
  case none
  /// These, issued by the provider and not saved yet.
  case these(Credential)

  /// The unsaved tokens, given those the session held before (`previous`).
  func resolved(previous: Credential?) -> Credential? {
    switch self {
    case .same: return previous
    case .none: return nil
    case .these(let credential): return credential
    }
  }
}

extension FlightOutcome {
  /// What this outcome does to the session. A pure function.
  ///
  /// The store's word comes first: a record gone signs out (for the reason kept with the
  /// deletion), a newer record that serves is adopted (even after the provider refused the
  /// token this session spent: a sibling spent it first), and a store out of reach degrades
  /// (never signs out). Then the provider's: a definitive refusal signs out, a transient
  /// failure degrades, issued tokens that were saved make the session healthy (degraded when
  /// they could not be fully checked).
  var settlement: FlightSettlement {
    if case .interrupted(let error) = provider { return .stay(error) }
    switch store {
    case .deleted(let reason):
      return .end(reason, error: nil, storedCopy: .alreadyGone)
    case .unavailable(let error):
      return .degrade(
        error, retryAfter: nil, unsaved: kept.map(UnsavedTokens.these) ?? .same, serving: nil)
    case .fenced(let conflict):
      return .degrade(conflict, retryAfter: nil, unsaved: .none, serving: nil)
    case .adopted:
      if let kept { return .recover(serving: kept, adopted: true) }
    case .saved, .unchanged:
      break
    }
    switch provider {
    case .refused(let reason, let error):
      return .end(reason, error: error, storedCopy: .delete)
    case .unavailable(let error, let retryAfter):
      return .degrade(error, retryAfter: retryAfter, unsaved: .same, serving: nil)
    case .issued, .notAsked, .interrupted:
      break
    }
    guard case .saved = store, let kept else {
      // No verdict settles it (not a combination the refresh produces): keep everything.
      return .stay(
        AuthError(.network, "The token refresh ended without an outcome.", provider: nil))
    }
    if case .issued(let problem?) = provider {
      return .degrade(problem, retryAfter: nil, unsaved: .none, serving: kept)
    }
    return .recover(serving: kept, adopted: false)
  }
}
