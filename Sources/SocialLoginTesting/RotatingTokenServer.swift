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
/// ```swift
/// let server = try RotatingTokenServer(latency: .milliseconds(50))
/// // point an OAuth2Configuration's tokenEndpoint at server.tokenEndpoint
/// ```
public final class RotatingTokenServer: Sendable {
  /// The URL of the token endpoint (`http://127.0.0.1:<port>/token`).
  public let tokenEndpoint: URL
  private let server: LoopbackServer
  private let state: Locked<State>
  private let latency: Duration
  private let onEvent: (@Sendable (_ event: String) -> Void)?

  private struct State {
    var generation = 0
    var attempts = 0
    var spent = 0
    var rejected = 0
    var hold: (spendFirst: Bool, gate: Gate)?
    var held = 0
  }

  /// Starts the server; the first valid refresh token is `rt-0`.
  ///
  /// - Parameters:
  ///   - latency: How long each answer is delayed (a provider's response time).
  ///   - onEvent: Called with `server-received` when a request has been read and with
  ///     `server-answer` when its answer is handed to the server to write (a bench's trace).
  public init(
    latency: Duration = .zero, onEvent: (@Sendable (_ event: String) -> Void)? = nil
  ) throws {
    server = try LoopbackServer()
    tokenEndpoint = URL(string: server.baseURL + "/token")!
    state = Locked(State())
    self.latency = latency
    self.onEvent = onEvent
    let server = self.server
    Task { [self] in
      try? await server.run { request in await self.handle(request) }
    }
  }

  /// Refresh requests that arrived (valid or not).
  public var attempts: Int { state.withLock { $0.attempts } }
  /// Refresh tokens spent (each rotated exactly once).
  public var spent: Int { state.withLock { $0.spent } }
  /// Requests refused with `invalid_grant`.
  public var rejected: Int { state.withLock { $0.rejected } }
  /// Requests currently held by ``holdNextRefresh(spendFirst:)``.
  public var held: Int { state.withLock { $0.held } }
  /// The refresh token the server accepts now.
  public var currentRefreshToken: String { state.withLock { "rt-\($0.generation)" } }

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
    enum Decision {
      case reject
      case issue(Int)
      case holdUnspent(Gate)
      case holdSpent(Int, Gate)
    }
    let decision = state.withLock { state -> Decision in
      state.attempts += 1
      guard token == "rt-\(state.generation)" else {
        state.rejected += 1
        return .reject
      }
      if let hold = state.hold, !hold.spendFirst {
        state.held += 1
        return .holdUnspent(hold.gate)
      }
      state.generation += 1
      state.spent += 1
      if let hold = state.hold {
        state.held += 1
        return .holdSpent(state.generation, hold.gate)
      }
      return .issue(state.generation)
    }
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

  private static func tokens(_ generation: Int) -> HTTPResponse {
    .json(
      #"{"token_type":"bearer","expires_in":7200,"access_token":"at-\#(generation)","#
        + #""refresh_token":"rt-\#(generation)","scope":"tweet.read users.read offline.access"}"#)
  }
}
