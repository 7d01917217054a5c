/// All that callers outside a ``SessionActor`` see of its phase, behind one lock: the access
/// token the fast path may hand out and until when, and the published ``AuthState`` with the
/// streams that receive it.
///
/// Only the actor writes it, as its phase and record change (``SessionActor/reflect(publishing:)``);
/// callers read it without hopping onto the actor: an uncontended lock costs a fraction of an
/// actor hop. One lock, not a token cache and a broadcaster each with their own, keeps an idle
/// session in a registry of 100,000 small.
@usableFromInline
struct SessionMirror: Sendable {
  /// The access token the fast path hands out.
  @usableFromInline var token: String
  /// Until when (local seconds since 1970) ``token`` may be handed out without a refresh:
  /// ``SessionPhase/servesUntil(_:leeway:lifetimeEnds:)``.
  @usableFromInline var deadline: Double
  /// The state last published.
  var state: AuthState
  /// The streams of ``SessionActor/states``.
  var subscribers = Subscribers<AuthState>()

  /// ``token``, when it may still be handed out at `now`.
  @inlinable
  func token(at now: Double) -> String? {
    now < deadline ? token : nil
  }
}
