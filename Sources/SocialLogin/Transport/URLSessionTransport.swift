import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The default ``HTTPTransport``: Foundation's `URLSession`, hardened for token endpoints.
///
/// - Redirects are never followed: a 3xx response is returned to the caller as it is, with its
///   `Location` header.
/// - The response body is capped at ``TransportRequest/maxResponseBytes``; a larger body
///   cancels the request and throws ``AuthError/Code/responseTooLarge``.
/// - ``TransportRequest/timeout`` bounds the whole exchange; running out throws
///   ``AuthError/Code/timedOut``.
/// - Cancelling the calling task cancels the request and throws `CancellationError`.
/// - Other failures throw ``AuthError/Code/network``; messages never contain query strings.
/// - The session is ephemeral: no cookies, no cache, no credential storage.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let response = try await transport.send(
///   .form(url: tokenURL, fields: [("grant_type", "refresh_token"), ("refresh_token", token)]))
/// ```
///
/// Create one transport and share it; call ``shutdown()`` (or drop the last reference) to
/// release its session.
///
/// On Linux, Foundation's `URLSession` (swift-corelibs-foundation over libcurl, Swift 6.3)
/// spins one thread for as long as a request waits for its answer: a dispatch write source
/// stays armed on the socket, which is always writable (`strace` shows `epoll_wait` returning
/// `EPOLLOUT`, then `poll(fd, POLLIN, 0)`, re-armed, a thousand times per 0.5 s wait). The
/// answers are right; the cost is a core kept busy while requests wait. A service that makes many
/// slow provider calls can plug in another client through ``HTTPTransport``.
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession
  private let delegate: Delegate

  /// Creates a transport with its own session.
  ///
  /// - Parameter configuration: tuning for the session (proxies, connection limits, extra
  ///   headers). The transport works on a copy and always disables cookies, caching and
  ///   credential storage on it. Defaults to `.ephemeral`.
  public init(configuration: URLSessionConfiguration = .ephemeral) {
    let configuration = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.urlCache = nil
    configuration.urlCredentialStorage = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let delegate = Delegate()
    let queue = OperationQueue()
    queue.name = "SocialLogin.URLSessionTransport"
    queue.maxConcurrentOperationCount = 1
    self.delegate = delegate
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
  }

  deinit {
    shutdown()
  }

  /// Cancels requests in flight (they throw ``AuthError/Code/network``) and invalidates the
  /// session. Later calls to ``send(_:)`` throw ``AuthError/Code/network``. Idempotent.
  public func shutdown() {
    guard delegate.shutDown() else { return }
    session.invalidateAndCancel()
  }

  /// Sends `request` without following redirects; see ``URLSessionTransport``.
  public func send(_ request: TransportRequest) async throws -> TransportResponse {
    try Task.checkCancellation()
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.httpBody = request.body
    urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
    urlRequest.httpShouldHandleCookies = false
    // swift-corelibs-foundation truncates `timeoutInterval` to whole seconds (0.5 s fails at
    // once, 1.5 s fires at 1 s) and treats it as an idle timeout, so the exact deadline is our
    // own (`startDeadline`); this is only a rounded-up backstop.
    urlRequest.timeoutInterval = max(1, Self.seconds(request.timeout).rounded(.up))
    for field in request.headers {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    let summary = RequestSummary(method: request.method, url: request.url)

    let session = self.session
    let delegate = self.delegate
    guard let task = delegate.makeTask(using: { session.dataTask(with: urlRequest) }) else {
      throw AuthError(.network, "\(summary): the transport was shut down.")
    }
    let id = task.taskIdentifier
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let isRegistered = delegate.register(
          id, continuation: continuation, maxBytes: max(0, request.maxResponseBytes),
          summary: summary, trustsContentLength: request.method.uppercased() != "HEAD")
        guard isRegistered else { return }  // shut down meanwhile; already failed
        if Task.isCancelled {
          // The cancellation handler ran before the request was registered.
          delegate.finish(id, with: .failure(CancellationError()))
          task.cancel()
          return
        }
        delegate.startDeadline(id, after: request.timeout, task: task)
        task.resume()
      }
    } onCancel: {
      delegate.finish(id, with: .failure(CancellationError()))
      task.cancel()
    }
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// `POST https://host/path` for error messages: no query, no fragment, no user info,
  /// scrubbed. Built only when a message needs it: scrubbing runs nine regular expressions,
  /// which cost more per request than the rest of `send(_:)` outside `URLSession`.
  private struct RequestSummary: Sendable, CustomStringConvertible {
    let method: String
    let url: URL

    var description: String {
      var text = method + " "
      if let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
        var safe = URLComponents()
        safe.scheme = components.scheme
        safe.host = components.host
        safe.port = components.port
        safe.percentEncodedPath = components.percentEncodedPath
        text += safe.string ?? "<url>"
      } else {
        text += "<url>"
      }
      return Redaction.scrub(text)
    }
  }
}

extension URLSessionTransport {
  /// The session delegate: refuses redirects, caps and collects bodies, and completes each
  /// request's continuation exactly once.
  ///
  /// All mutable state lives in `state` (lock-protected); continuations are resumed outside it.
  private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending {
      var continuation: CheckedContinuation<TransportResponse, any Error>
      var maxBytes: Int
      var summary: RequestSummary
      /// `false` for `HEAD`, whose `Content-Length` describes a body that is not sent.
      var trustsContentLength: Bool
      var response: HTTPURLResponse?
      var body = Data()
    }

    private struct State {
      var pending: [Int: Pending] = [:]
      var isShutDown = false
    }

    private let state = Locked(State())

    /// Creates a task unless the transport was shut down (creating a task on an invalidated
    /// session traps in swift-corelibs-foundation).
    func makeTask(using make: () -> URLSessionDataTask) -> URLSessionDataTask? {
      state.withLock { state in state.isShutDown ? nil : make() }
    }

    /// Marks the transport shut down and fails every request in flight. Returns `false` when it
    /// was already shut down.
    func shutDown() -> Bool {
      let failed: [Pending]? = state.withLock { state in
        guard !state.isShutDown else { return nil }
        state.isShutDown = true
        defer { state.pending = [:] }
        return Array(state.pending.values)
      }
      guard let failed else { return false }
      for pending in failed {
        pending.continuation.resume(
          throwing: AuthError(.network, "\(pending.summary): the transport was shut down."))
      }
      return true
    }

    /// Registers request `id`; when the transport is shut down, fails it and returns `false`.
    func register(
      _ id: Int, continuation: CheckedContinuation<TransportResponse, any Error>, maxBytes: Int,
      summary: RequestSummary, trustsContentLength: Bool
    ) -> Bool {
      let isShutDown = state.withLock { state in
        if !state.isShutDown {
          state.pending[id] = Pending(
            continuation: continuation, maxBytes: maxBytes, summary: summary,
            trustsContentLength: trustsContentLength)
        }
        return state.isShutDown
      }
      if isShutDown {
        continuation.resume(
          throwing: AuthError(.network, "\(summary): the transport was shut down."))
      }
      return !isShutDown
    }

    /// Fails the request with ``AuthError/Code/timedOut`` once `timeout` has passed, even when
    /// the server keeps trickling bytes (`timeoutInterval` may be only an idle timeout).
    ///
    /// The timer runs on a Dispatch queue, not in a Swift task: a cooperative pool saturated by
    /// the caller's own work must not be able to postpone a deadline. A timer that fires after
    /// the request finished finds nothing pending and does nothing.
    func startDeadline(_ id: Int, after timeout: Duration, task: URLSessionDataTask) {
      let (seconds, attoseconds) = timeout.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
        [weak self] in
        guard let self else { return }
        guard let summary = self.state.withLock({ $0.pending[id]?.summary }) else { return }
        let timedOut = self.finish(
          id,
          with: .failure(
            AuthError(
              .timedOut, "\(summary): no complete response within \(timeout).",
              answerLost: true)))
        if timedOut { task.cancel() }
      }
    }

    /// Completes request `id` once; later calls for the same id do nothing and return `false`.
    @discardableResult
    func finish(_ id: Int, with result: Result<TransportResponse, any Error>) -> Bool {
      guard let pending = state.withLock({ $0.pending.removeValue(forKey: id) }) else {
        return false
      }
      pending.continuation.resume(with: result)
      return true
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
      let id = dataTask.taskIdentifier
      let tooLarge: RequestSummary? = state.withLock { state in
        guard state.pending[id] != nil else { return nil }
        state.pending[id]?.response = response as? HTTPURLResponse
        guard let pending = state.pending[id], pending.trustsContentLength,
          response.expectedContentLength > Int64(pending.maxBytes)
        else { return nil }
        return pending.summary
      }
      if let tooLarge {
        failTooLarge(id, summary: tooLarge, announced: response.expectedContentLength)
        completionHandler(.cancel)
        dataTask.cancel()
      } else {
        completionHandler(.allow)
      }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      let id = dataTask.taskIdentifier
      let tooLarge: RequestSummary? = state.withLock { state in
        guard var pending = state.pending[id] else { return nil }
        guard pending.body.count + data.count <= pending.maxBytes else { return pending.summary }
        state.pending[id] = nil  // avoid a copy of `body` while appending
        pending.body.append(data)
        state.pending[id] = pending
        return nil
      }
      if let tooLarge {
        failTooLarge(id, summary: tooLarge, announced: nil)
        dataTask.cancel()
      }
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      let id = task.taskIdentifier
      guard let pending = state.withLock({ $0.pending[id] }) else { return }
      if let error {
        finish(id, with: .failure(Self.authError(for: error, summary: pending.summary)))
        return
      }
      guard let response = pending.response ?? task.response as? HTTPURLResponse else {
        finish(
          id,
          with: .failure(
            AuthError(.invalidResponse, "\(pending.summary): the response was not HTTP.")))
        return
      }
      finish(
        id,
        with: .success(
          TransportResponse(
            status: response.statusCode, headers: Self.headers(of: response),
            body: pending.body)))
    }

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask,
      willCacheResponse proposedResponse: CachedURLResponse,
      completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
      completionHandler(nil)
    }

    // MARK: Helpers

    private func failTooLarge(_ id: Int, summary: RequestSummary, announced: Int64?) {
      let (maxBytes, status) = state.withLock { state in
        (state.pending[id]?.maxBytes ?? 0, state.pending[id]?.response?.statusCode)
      }
      let size = announced.map { " (\($0) bytes)" } ?? ""
      let error = AuthError(
        .responseTooLarge,
        "\(summary): the response body\(size) exceeds the \(maxBytes)-byte limit.",
        httpStatus: status)
      finish(id, with: .failure(error))
    }

    private static func headers(of response: HTTPURLResponse) -> HTTPHeaderFields {
      var headers = HTTPHeaderFields()
      let pairs = response.allHeaderFields.compactMap { key, value -> (String, String)? in
        guard let name = key as? String else { return nil }
        return (name, value as? String ?? String(describing: value))
      }
      for (name, value) in pairs.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
        headers.append(name: name, value: value)
      }
      return headers
    }

    /// Maps a `URLSession` error to ``AuthError``. The underlying error is rebuilt from its code
    /// only, because its `userInfo` carries the full URL (query string included).
    private static func authError(for error: any Error, summary: RequestSummary) -> AuthError {
      guard let urlError = error as? URLError else {
        let text = Redaction.scrub(String(describing: type(of: error)))
        return AuthError(.network, "\(summary): the request failed (\(text)).")
      }
      let cause = URLError(urlError.code)
      let lost = urlError.code.mayHaveLostAnAnswer
      switch urlError.code {
      case .timedOut:
        return AuthError(
          .timedOut, "\(summary): the request timed out.", underlying: cause, answerLost: lost)
      case .cancelled:
        return AuthError(.network, "\(summary): the request was cancelled.", underlying: cause)
      default:
        return AuthError(
          .network, "\(summary): \(describe(urlError.code)) (URLError \(urlError.code.rawValue)).",
          underlying: cause, answerLost: lost)
      }
    }

    private static func describe(_ code: URLError.Code) -> String {
      switch code {
      case .cannotConnectToHost: return "could not connect to the host"
      case .cannotFindHost, .dnsLookupFailed: return "could not resolve the host"
      case .networkConnectionLost: return "the connection was lost"
      case .notConnectedToInternet: return "not connected to the network"
      case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
        .clientCertificateRejected, .clientCertificateRequired:
        return "the TLS handshake failed"
      case .badServerResponse, .cannotParseResponse: return "the server's response was malformed"
      case .badURL, .unsupportedURL: return "the URL is not supported"
      default: return "the request failed"
      }
    }
  }
}

extension URLError.Code {
  /// Whether a request that failed with this code may have been sent with its answer lost
  /// (``AuthError/answerLost``): a timeout (`URLSession` does not say whether it was connected
  /// by then), or a connection lost, closed or answered with garbage once established. Codes
  /// from before a connection existed (DNS, refused, TLS, offline) are not.
  var mayHaveLostAnAnswer: Bool {
    switch self {
    case .timedOut, .networkConnectionLost, .badServerResponse, .cannotParseResponse,
      .zeroByteResource:
      return true
    default:
      return false
    }
  }
}
