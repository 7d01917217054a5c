import Foundation
import LoopbackHTTP
import SocialLogin

/// A loopback OAuth 2.0 token endpoint with X's refresh behaviour: every refresh token is
/// single use and rotates; a spent or unknown one gets `400 invalid_grant`. It counts what
/// reached it, so multi-process tests can prove that exactly one refresh was spent.
///
/// Tests can hold the next refresh in flight (``holdNextRefresh(spendFirst:)``): either before
/// spending it (the held request is then dropped unspent, like a provider whose client went
/// away before it answered) or after spending it (the answer is lost with its client: the case
/// no client can save).
///
/// Two behaviours of real providers can be turned on, because a client that survives crashes
/// must be judged against them, not against a forgiving server:
/// - **Reuse detection** (Okta, Auth0, django-oauth-toolkit): presenting a refresh token that
///   was already spent revokes its whole family, so every token of the session, the current
///   one included, gets `invalid_grant` from then on (the session is dead).
/// - **A reuse grace period** (Auth0's reuse interval): a spent token presented again within
///   the grace of its first spend is honoured with a new generation, and counted, without
///   revocation; it covers a client that lost the answer and retries.
///
/// Every presentation of a spent token outside the grace is a *token spent twice*
/// (``replaysOutsideGrace``), counted with or without reuse detection, and classified: if the
/// token issued for it was ever presented, its answer had reached a client that used it, so
/// the replay came from a stale record (``spentTwiceAfterDelivery``: a bug in the client);
/// otherwise the answer may have been lost with a killed client (``spentTwiceUndelivered``:
/// the window no client can close alone).
///
/// ```swift
/// let server = try RotatingTokenServer(
///   latency: .milliseconds(50), reuseDetection: true, reuseGrace: .seconds(30))
/// // point an OAuth2Configuration's tokenEndpoint at server.tokenEndpoint
/// ```
public final class RotatingTokenServer: Sendable {
  /// The URL of the token endpoint (`http://127.0.0.1:<port>/token`).
  public let tokenEndpoint: URL
  /// Whether presenting a spent token (outside the grace) revokes the token family.
  public let reuseDetection: Bool
  /// How long after its first spend a refresh token is still honoured; `nil` for none.
  public let reuseGrace: Duration?
  private let server: LoopbackServer
  private let state: Locked<State>
  private let latency: Duration
  private let onEvent: (@Sendable (_ event: String) -> Void)?

  private struct State {
    /// The generation of the token accepted now (`rt-<generation>`).
    var generation = 0
    /// The first generation of the current family: older tokens belong to ended families.
    var familyStart = 0
    var attempts = 0
    var spent = 0
    var rejected = 0
    var hold: (spendFirst: Bool, gate: Gate)?
    var held = 0
    /// When each token of the family stopped being current (spent, or superseded by a
    /// generation issued within the grace).
    var retiredAt: [Int: ContinuousClock.Instant] = [:]
    /// The generations issued in exchange for each token.
    var issuedFor: [Int: [Int]] = [:]
    /// Generations that were presented at least once.
    var presented: Set<Int> = []
    var replaysWithinGrace = 0
    var replaysOutsideGrace = 0
    var spentTwiceAfterDelivery = 0
    var familyRevoked = false
    var familiesRevoked = 0

    /// Issues the next generation for `token`.
    mutating func issue(for token: Int, at now: ContinuousClock.Instant) -> Int {
      retiredAt[generation] = retiredAt[generation] ?? now
      generation += 1
      issuedFor[token, default: []].append(generation)
      return generation
    }
  }

  /// Starts the server; the first valid refresh token is `rt-0`.
  ///
  /// The defaults keep the strictest single-use behaviour without revocation: a spent token is
  /// refused, and the session's current token stays valid.
  ///
  /// - Parameters:
  ///   - latency: How long each answer is delayed (a provider's response time).
  ///   - reuseDetection: Whether presenting a spent token outside the grace revokes every
  ///     token of its family, as Okta, Auth0 and django-oauth-toolkit do.
  ///   - reuseGrace: How long after its first spend a token is still honoured (a new
  ///     generation is issued and ``replaysWithinGrace`` counts it); `nil` for none.
  ///   - onEvent: Called with `server-received` when a request has been read and with
  ///     `server-answer` when its answer is handed to the server to write (a bench's trace).
  public init(
    latency: Duration = .zero, reuseDetection: Bool = false, reuseGrace: Duration? = nil,
    onEvent: (@Sendable (_ event: String) -> Void)? = nil
  ) throws {
    server = try LoopbackServer()
    tokenEndpoint = URL(string: server.baseURL + "/token")!
    state = Locked(State())
    self.latency = latency
    self.reuseDetection = reuseDetection
    self.reuseGrace = reuseGrace
    self.onEvent = onEvent
    let server = self.server
    Task { [self] in
      try? await server.run { request in await self.handle(request) }
    }
  }

  /// Refresh requests that arrived (valid or not).
  public var attempts: Int { state.withLock { $0.attempts } }
  /// Refresh tokens spent for the first time (each rotated exactly once); replays honoured
  /// within the grace are counted by ``replaysWithinGrace`` instead.
  public var spent: Int { state.withLock { $0.spent } }
  /// Requests refused with `invalid_grant`.
  public var rejected: Int { state.withLock { $0.rejected } }
  /// Requests currently held by ``holdNextRefresh(spendFirst:)``.
  public var held: Int { state.withLock { $0.held } }
  /// The refresh token the server accepts now (refused too once the family is revoked).
  public var currentRefreshToken: String { state.withLock { "rt-\($0.generation)" } }
  /// Spent tokens presented again within ``reuseGrace`` of their first spend, and honoured.
  public var replaysWithinGrace: Int { state.withLock { $0.replaysWithinGrace } }
  /// Spent tokens presented again outside the grace: each is a token spent twice (refused,
  /// and with ``reuseDetection`` the family revoked). Replays of an already revoked family
  /// are not counted again.
  public var replaysOutsideGrace: Int { state.withLock { $0.replaysOutsideGrace } }
  /// Replays outside the grace of a token whose successor had been presented: the answer had
  /// reached a client that used it, so the replay came from a stale record.
  public var spentTwiceAfterDelivery: Int { state.withLock { $0.spentTwiceAfterDelivery } }
  /// Replays outside the grace of a token whose successor was never presented: the answer may
  /// have been lost with a killed client.
  public var spentTwiceUndelivered: Int {
    state.withLock { $0.replaysOutsideGrace - $0.spentTwiceAfterDelivery }
  }
  /// Whether the current token family was revoked by reuse detection.
  public var familyRevoked: Bool { state.withLock { $0.familyRevoked } }
  /// How many token families reuse detection revoked since the server started.
  public var familiesRevoked: Int { state.withLock { $0.familiesRevoked } }

  /// Ends the current token family (revoked or not) and starts a new one, for a new session
  /// after one was lost: every token issued so far is refused from then on, without counting
  /// as a replay. Returns the new family's first refresh token.
  @discardableResult
  public func startNewFamily() -> String {
    state.withLock { state in
      state.generation += 1
      state.familyStart = state.generation
      state.familyRevoked = false
      state.retiredAt = [:]
      state.issuedFor = [:]
      state.presented = []
      return "rt-\(state.generation)"
    }
  }

  /// Holds every valid refresh from now on until ``releaseHeld()``. With `spendFirst`, the
  /// token is spent (rotated) on arrival and the answer is held; otherwise the request is held
  /// unspent and answered `503` on release, spending nothing.
  public func holdNextRefresh(spendFirst: Bool) {
    state.withLock { $0.hold = (spendFirst, Gate()) }
  }

  /// Releases held requests and stops holding.
  public func releaseHeld() {
    let gate = state.withLock { state -> Gate? in
      defer { state.hold = nil }
      return state.hold?.gate
    }
    gate?.open()
  }

  /// Stops the server.
  public func close() {
    releaseHeld()
    server.close()
  }

  /// The generation of `token` when it has the server's shape (`rt-` and decimal digits).
  static func generation(of token: String) -> Int? {
    guard token.hasPrefix("rt-") else { return nil }
    let digits = token.dropFirst(3)
    guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    return Int(digits)
  }

  private enum Decision {
    case reject
    case issue(Int)
    case holdUnspent(Gate)
    case holdSpent(Int, Gate)
  }

  private func handle(_ request: HTTPRequest) async -> HTTPResponse {
    onEvent?("server-received")
    defer { onEvent?("server-answer") }
    guard request.method == "POST", request.path == "/token",
      let form = request.formItems,
      form.first(where: { $0.name == "grant_type" })?.value == "refresh_token",
      let token = form.first(where: { $0.name == "refresh_token" })?.value
    else {
      return .json(#"{"error":"invalid_request"}"#, status: 400)
    }
    if latency > .zero { try? await Task.sleep(for: latency) }
    let decision = state.withLock { decide(token, &$0) }
    switch decision {
    case .reject:
      return .json(
        #"{"error":"invalid_grant","error_description":"Value passed for the token was invalid."}"#,
        status: 400)
    case .issue(let generation):
      return Self.tokens(generation)
    case .holdUnspent(let gate):
      await gate.wait()
      state.withLock { $0.held -= 1 }
      return .json(#"{"error":"temporarily_unavailable"}"#, status: 503)
    case .holdSpent(let generation, let gate):
      await gate.wait()
      state.withLock { $0.held -= 1 }
      return Self.tokens(generation)
    }
  }

  private func decide(_ token: String, _ state: inout State) -> Decision {
    state.attempts += 1
    let now = ContinuousClock.now
    // Unknown shapes, tokens never issued and tokens of ended families: refused, no replay.
    guard let presented = Self.generation(of: token), presented >= state.familyStart,
      presented <= state.generation
    else {
      state.rejected += 1
      return .reject
    }
    if state.familyRevoked {
      state.rejected += 1
      return .reject
    }
    state.presented.insert(presented)
    if presented < state.generation {
      return replay(of: presented, at: now, &state)
    }
    if let hold = state.hold, !hold.spendFirst {
      state.held += 1
      return .holdUnspent(hold.gate)
    }
    state.spent += 1
    let generation = state.issue(for: presented, at: now)
    if let hold = state.hold {
      state.held += 1
      return .holdSpent(generation, hold.gate)
    }
    return .issue(generation)
  }

  /// A token that is no longer current presented again: honoured within the grace of when it
  /// was first retired, otherwise a token spent twice.
  private func replay(of token: Int, at now: ContinuousClock.Instant, _ state: inout State)
    -> Decision
  {
    if let grace = reuseGrace, let retired = state.retiredAt[token],
      retired.duration(to: now) < grace
    {
      state.replaysWithinGrace += 1
      return .issue(state.issue(for: token, at: now))
    }
    state.replaysOutsideGrace += 1
    let successors = state.issuedFor[token] ?? []
    if successors.contains(where: state.presented.contains) {
      state.spentTwiceAfterDelivery += 1
    }
    if reuseDetection {
      state.familyRevoked = true
      state.familiesRevoked += 1
    }
    state.rejected += 1
    return .reject
  }

  private static func tokens(_ generation: Int) -> HTTPResponse {
    .json(
      #"{"token_type":"bearer","expires_in":7200,"access_token":"at-\#(generation)","#
        + #""refresh_token":"rt-\#(generation)","scope":"tweet.read users.read offline.access"}"#)
  }
}
