import Foundation
import SocialLogin

/// A scripted `HTTPTransport` for tests: canned replies per route, a record of every request,
/// and a gate that parks responses until the test releases them.
///
/// Replies are matched by method and URL path (plus an optional predicate) and queued per route:
/// one-shot replies answer in the order they were added, then a ``Reply`` added with
/// `repeating: true` answers every further matching request. Requests that match nothing go
/// to the default handler, or get a `404` whose body names the unmatched route.
///
/// ```swift
/// let stub = StubTransport()
/// stub.on("POST", "/token", reply: .json(#"{"access_token":"a1","expires_in":3600}"#))
/// stub.on("POST", "/token", reply: .failure(AuthError(.network, "offline")))
/// stub.on("GET", "/me", repeating: true, reply: .json(#"{"id":"42"}"#))
///
/// let provider = MyProvider(transport: stub)
/// _ = try await provider.refresh(...)
/// #expect(stub.requestCount(path: "/token") == 1)
/// #expect(stub.requests.last?.headers["Authorization"] == "Bearer a1")
/// ```
///
/// For concurrency tests, hold responses and release them when every caller is waiting:
///
/// ```swift
/// stub.holdResponses()
/// async let first = session.freshAccessToken()
/// async let second = session.freshAccessToken()
/// await stub.waitUntilHeld(count: 1)   // the single refresh is in flight
/// stub.release()
/// _ = try await (first, second)
/// #expect(stub.requestCount(path: "/token") == 1)
/// ```
public final class StubTransport: HTTPTransport {
  /// What the stub answers with.
  public enum Reply: Sendable {
    /// Return this response.
    case response(TransportResponse)
    /// Throw this error, for example `AuthError(.network, "offline")` or `URLError`.
    case failure(any Error)
    /// Compute the response from the request (it may also throw).
    case handler(@Sendable (TransportRequest) async throws -> TransportResponse)

    /// A JSON response with `Content-Type: application/json`.
    public static func json(
      _ body: String, status: Int = 200, headers: HTTPHeaderFields = [:]
    ) -> Reply {
      var headers = headers
      if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
      return .response(TransportResponse(status: status, headers: headers, body: Data(body.utf8)))
    }

    /// A form-encoded response (OAuth 1.0a token endpoints), fields in order.
    public static func form(
      _ fields: [(String, String)], status: Int = 200, headers: HTTPHeaderFields = [:]
    ) -> Reply {
      var headers = headers
      if headers["Content-Type"] == nil { headers["Content-Type"] = FormEncoding.contentType }
      let body = Data(FormEncoding.encode(fields).utf8)
      return .response(TransportResponse(status: status, headers: headers, body: body))
    }

    /// A response with `status` and a plain-text body.
    public static func status(
      _ status: Int, body: String = "", headers: HTTPHeaderFields = [:]
    ) -> Reply {
      .response(TransportResponse(status: status, headers: headers, body: Data(body.utf8)))
    }
  }

  /// Decides whether a reply applies to a request, beyond its method and path.
  public typealias Predicate = @Sendable (TransportRequest) -> Bool

  /// Answers requests that match no scripted reply.
  public typealias Handler = @Sendable (TransportRequest) async throws -> TransportResponse

  private struct Entry: Sendable {
    var id: Int
    var method: String?
    var path: String
    var predicate: Predicate?
    var reply: Reply
    var repeating: Bool

    func matches(_ request: TransportRequest) -> Bool {
      if let method, method.caseInsensitiveCompare(request.method) != .orderedSame { return false }
      return request.url.path == path
    }
  }

  private enum Condition: Sendable {
    case held(Int)
    case recorded(Int)
  }

  private struct Waiter: Sendable {
    var condition: Condition
    var continuation: CheckedContinuation<Void, Never>
  }

  private struct State: Sendable {
    var entries: [Entry] = []
    var nextID = 0
    var requests: [TransportRequest] = []
    var defaultHandler: Handler?
    var isHolding = false
    var held: [Int: CheckedContinuation<Void, any Error>] = [:]
    var heldOrder: [Int] = []
    var waiters: [Waiter] = []

    func isSatisfied(_ condition: Condition) -> Bool {
      switch condition {
      case .held(let count): return held.count >= count
      case .recorded(let count): return requests.count >= count
      }
    }

    /// Removes and returns the waiters whose condition now holds.
    mutating func satisfiedWaiters() -> [Waiter] {
      var ready: [Waiter] = []
      var waiting: [Waiter] = []
      for waiter in waiters {
        if isSatisfied(waiter.condition) { ready.append(waiter) } else { waiting.append(waiter) }
      }
      waiters = waiting
      return ready
    }
  }

  private let state: Locked<State>

  /// Creates a stub with no replies.
  ///
  /// - Parameter defaultHandler: answers requests that match no scripted reply; without one,
  ///   they get a `404` naming the unmatched route.
  public init(defaultHandler: Handler? = nil) {
    state = Locked(State(defaultHandler: defaultHandler))
  }

  // MARK: Scripting

  /// Queues `reply` for requests with `method` (any method when `nil`) and URL `path`.
  ///
  /// - Parameters:
  ///   - method: `GET`, `POST`, ... compared case-insensitively; `nil` matches every method.
  ///   - path: the URL path, compared exactly (`/oauth2/token`).
  ///   - predicate: an extra condition, for example on a form field of the body. It runs
  ///     outside the stub's lock, and may be called for requests it does not end up answering.
  ///   - repeating: when `true`, the reply answers every matching request that no one-shot
  ///     reply answers; otherwise it answers once, after earlier one-shot replies of its route.
  ///   - reply: the response, error or handler.
  public func on(
    _ method: String?,
    _ path: String,
    where predicate: Predicate? = nil,
    repeating: Bool = false,
    reply: Reply
  ) {
    state.withLock { state in
      state.entries.append(
        Entry(
          id: state.nextID, method: method, path: path, predicate: predicate, reply: reply,
          repeating: repeating))
      state.nextID += 1
    }
  }

  /// Replaces the handler for requests that match no scripted reply.
  public func setDefaultHandler(_ handler: Handler?) {
    state.withLock { $0.defaultHandler = handler }
  }

  /// How many one-shot replies have not been used yet (useful to check a script ran fully).
  public var unusedReplyCount: Int {
    state.withLock { $0.entries.filter { !$0.repeating }.count }
  }

  // MARK: Recorded requests

  /// Every request sent so far, in arrival order, matched or not.
  public var requests: [TransportRequest] { state.withLock { $0.requests } }

  /// How many requests were sent to `path` (with `method`, when given).
  public func requestCount(path: String, method: String? = nil) -> Int {
    state.withLock { state in
      state.requests.filter { request in
        request.url.path == path
          && (method.map { request.method.caseInsensitiveCompare($0) == .orderedSame } ?? true)
      }.count
    }
  }

  /// Suspends until at least `count` requests have been recorded.
  public func waitForRequests(count: Int) async {
    await wait(for: .recorded(count))
  }

  // MARK: Gate

  /// From now on, each request is recorded and then parked until ``release()``.
  public func holdResponses() {
    state.withLock { $0.isHolding = true }
  }

  /// Lets every parked request proceed and stops parking new ones.
  public func release() {
    let parked = state.withLock { state in
      state.isHolding = false
      let parked = state.heldOrder.compactMap { state.held[$0] }
      state.held = [:]
      state.heldOrder = []
      return parked
    }
    for continuation in parked { continuation.resume() }
  }

  /// Lets the oldest parked request proceed, keeping the gate closed for the others.
  /// Returns `false` when no request was parked.
  @discardableResult
  public func releaseOne() -> Bool {
    let next: CheckedContinuation<Void, any Error>? = state.withLock { state in
      guard !state.heldOrder.isEmpty else { return nil }
      return state.held.removeValue(forKey: state.heldOrder.removeFirst())
    }
    next?.resume()
    return next != nil
  }

  /// How many requests are parked right now.
  public var heldCount: Int { state.withLock { $0.held.count } }

  /// Suspends until at least `count` requests are parked at the same time.
  public func waitUntilHeld(count: Int) async {
    await wait(for: .held(count))
  }

  // MARK: HTTPTransport

  /// Records `request`, waits at the gate if it is closed, then answers with the matching
  /// reply, the default handler or a `404`.
  ///
  /// Throws `CancellationError` when the calling task is cancelled while parked at the gate,
  /// and whatever a ``Reply/failure(_:)`` or ``Reply/handler(_:)`` reply throws.
  public func send(_ request: TransportRequest) async throws -> TransportResponse {
    let (ticket, ready) = state.withLock { state in
      state.requests.append(request)
      state.nextID += 1
      return (state.nextID, state.satisfiedWaiters())
    }
    for waiter in ready { waiter.continuation.resume() }
    try await passGate(ticket)

    switch take(for: request) {
    case .response(let response): return response
    case .failure(let error): throw error
    case .handler(let handler): return try await handler(request)
    }
  }

  // MARK: Internals

  private func wait(for condition: Condition) async {
    await withCheckedContinuation { continuation in
      let isSatisfied = state.withLock { state in
        guard !state.isSatisfied(condition) else { return true }
        state.waiters.append(Waiter(condition: condition, continuation: continuation))
        return false
      }
      if isSatisfied { continuation.resume() }
    }
  }

  private func passGate(_ ticket: Int) async throws {
    guard state.withLock({ $0.isHolding }) else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (isParked, ready) = state.withLock { state in
          guard state.isHolding else { return (false, [Waiter]()) }
          state.held[ticket] = continuation
          state.heldOrder.append(ticket)
          return (true, state.satisfiedWaiters())
        }
        guard isParked else {
          continuation.resume()
          return
        }
        for waiter in ready { waiter.continuation.resume() }
        if Task.isCancelled { unpark(ticket) }
      }
    } onCancel: {
      unpark(ticket)
    }
  }

  /// Removes a parked request and fails it with `CancellationError`.
  private func unpark(_ ticket: Int) {
    let continuation = state.withLock { state in
      state.heldOrder.removeAll { $0 == ticket }
      return state.held.removeValue(forKey: ticket)
    }
    continuation?.resume(throwing: CancellationError())
  }

  /// Picks the reply for `request`, removing it when it is one-shot.
  private func take(for request: TransportRequest) -> Reply {
    while true {
      let (entries, fallback) = state.withLock { state in
        (state.entries.filter { $0.matches(request) }, state.defaultHandler)
      }
      let candidates = entries.filter { !$0.repeating } + entries.filter(\.repeating)
      guard let chosen = candidates.first(where: { $0.predicate?(request) ?? true }) else {
        if let fallback { return .handler(fallback) }
        return notFound(request)
      }
      if chosen.repeating { return chosen.reply }
      let isTaken = state.withLock { state in
        guard let index = state.entries.firstIndex(where: { $0.id == chosen.id }) else {
          return false
        }
        state.entries.remove(at: index)
        return true
      }
      // Another request took this one-shot reply first: choose again.
      if isTaken { return chosen.reply }
    }
  }

  private func notFound(_ request: TransportRequest) -> Reply {
    let scripted = state.withLock { state in
      Set(state.entries.map { "\($0.method ?? "*") \($0.path)" }).sorted()
    }
    let routes = scripted.isEmpty ? "none" : scripted.joined(separator: ", ")
    let body =
      "StubTransport: no reply scripted for \(request.method) \(request.url.path)"
      + " (routes with replies left: \(routes))."
    return .status(404, body: body, headers: ["Content-Type": "text/plain; charset=utf-8"])
  }
}
