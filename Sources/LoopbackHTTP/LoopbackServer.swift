import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loopback address a ``LoopbackServer`` binds to. There is deliberately no way to bind
/// any other address.
public enum LoopbackAddress: Sendable, Hashable, CustomStringConvertible {
  /// `127.0.0.1`.
  case ipv4
  /// `::1` (IPv6-only socket).
  case ipv6

  /// The host as written in a URL: `127.0.0.1` or `[::1]`.
  public var urlHost: String {
    switch self {
    case .ipv4: "127.0.0.1"
    case .ipv6: "[::1]"
    }
  }

  /// `127.0.0.1` or `::1`.
  public var description: String {
    switch self {
    case .ipv4: "127.0.0.1"
    case .ipv6: "::1"
    }
  }
}

/// Errors from creating or running a ``LoopbackServer``.
public enum LoopbackServerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Another socket is already listening on the port.
  case addressInUse(port: UInt16)
  /// The host has no such loopback address (typically IPv6 disabled).
  case addressUnavailable(LoopbackAddress)
  /// Binding a privileged port (below 1024) was refused.
  case permissionDenied(port: UInt16)
  /// `socket(2)`, `setsockopt(2)`, `fcntl(2)`, `pipe(2)` or `getsockname(2)` failed.
  case socketFailed(errno: Int32)
  /// `bind(2)` failed for a reason other than the ones above.
  case bindFailed(errno: Int32)
  /// `listen(2)` failed.
  case listenFailed(errno: Int32)
  /// `accept(2)` failed with an error that retrying cannot fix.
  case acceptFailed(errno: Int32)
  /// `poll(2)` failed.
  case pollFailed(errno: Int32)
  /// ``LoopbackServer/run(_:)`` was called while a previous call is still serving.
  case alreadyRunning
  /// ``LoopbackServer/run(_:)`` was called after the server was closed (or after an earlier
  /// `run` returned, which closes it).
  case closed

  /// A readable explanation including the system's text for `errno`.
  public var description: String {
    switch self {
    case .addressInUse(let port): "port \(port) is already in use"
    case .addressUnavailable(let address): "loopback address \(address) is not available"
    case .permissionDenied(let port): "permission denied binding port \(port)"
    case .socketFailed(let code): "socket setup failed: \(Self.text(code))"
    case .bindFailed(let code): "bind failed: \(Self.text(code))"
    case .listenFailed(let code): "listen failed: \(Self.text(code))"
    case .acceptFailed(let code): "accept failed: \(Self.text(code))"
    case .pollFailed(let code): "poll failed: \(Self.text(code))"
    case .alreadyRunning: "the server is already running"
    case .closed: "the server is closed"
    }
  }

  private static func text(_ code: Int32) -> String {
    "\(String(cString: strerror(code))) (errno \(code))"
  }
}

/// A small, strict HTTP/1.1 server bound to `127.0.0.1` or `::1` only, for RFC 8252 loopback
/// redirects and for in-process provider emulators.
///
/// `init` binds and listens synchronously, so ``port`` and ``baseURL`` are known before the
/// browser is sent anywhere. ``run(_:)`` then serves until its task is cancelled or ``close()``
/// is called. Each connection carries one request (`Connection: close`); the handler is only
/// ever called with requests that passed ``HTTPRequestParser``'s checks.
///
/// ```swift
/// let server = try LoopbackServer()                       // 127.0.0.1, ephemeral port
/// let redirectURI = server.baseURL + "/callback"
/// let (codes, sink) = AsyncStream.makeStream(of: String.self)
/// let serving = Task {
///   try await server.run { request in
///     guard request.path == "/callback", let code = request.uniqueQueryValue("code") else {
///       return .text("not found", status: 404)
///     }
///     sink.yield(code)
///     return .html("<p>Signed in. You can close this window.</p>")
///   }
/// }
/// openBrowser(authorizationURL(redirectURI: redirectURI))
/// let code = await codes.first { _ in true }
/// serving.cancel()   // or server.close(); run returns and the port is released
/// ```
///
/// ## Design
/// It is a `final class` rather than an actor because ``port`` must be readable and ``close()``
/// callable synchronously (from `onCancel`, `deinit` or another thread); all stored state is
/// immutable or in the lock-guarded `ServerShared`.
///
/// All blocking work happens on one dedicated thread running a `poll(2)` loop over the
/// listening socket, a wake-up pipe and up to ``HTTPLimits/maxConnections`` non-blocking
/// connections, so the cooperative thread pool is never blocked and one slow or idle client
/// (browsers open speculative connections) cannot stall the others. Each request gets one
/// absolute read deadline (``HTTPLimits/readTimeout``) and its response one write deadline.
/// Handlers run as child tasks of `run`, concurrently when requests arrive concurrently, and
/// inherit its task-locals and cancellation. A handler whose client closes the connection
/// before the answer is cancelled (on Linux, where `poll` reports the peer's close), so work
/// for nobody can stop: the provider emulator then drops a held request unspent.
public final class LoopbackServer: Sendable {
  /// The address the server is bound to.
  public let address: LoopbackAddress
  /// The bound port (the kernel's choice when `0` was requested).
  public let port: UInt16
  /// The limits applied to each request.
  public let limits: HTTPLimits
  private let shared: ServerShared

  /// `http://127.0.0.1:PORT` or `http://[::1]:PORT`, without a trailing slash.
  public var baseURL: String { "http://\(address.urlHost):\(port)" }

  /// Whether ``close()`` was called or ``run(_:)`` has finished.
  public var isClosed: Bool { shared.isClosed }

  /// Binds and listens.
  /// - Parameters:
  ///   - address: `.ipv4` (`127.0.0.1`) or `.ipv6` (`::1`).
  ///   - port: The port, or `0` for an ephemeral one. `SO_REUSEADDR` is set, so a fixed port
  ///     can be bound again right after a previous server on it closed.
  ///   - limits: Size limits and timeouts per request.
  /// - Throws: ``LoopbackServerError/addressInUse(port:)`` if something listens on the port,
  ///   ``LoopbackServerError/addressUnavailable(_:)`` if the host lacks that loopback address,
  ///   or another `LoopbackServerError` for system failures.
  public init(
    bindTo address: LoopbackAddress = .ipv4, port: UInt16 = 0, limits: HTTPLimits = .default
  ) throws(LoopbackServerError) {
    let listener = try Socket.makeListener(on: address, port: port)
    let pipe: (read: Int32, write: Int32)
    do {
      pipe = try Socket.makeWakePipe()
    } catch {
      Socket.closeDescriptor(listener.fd)
      throw error
    }
    self.address = address
    self.port = listener.port
    self.limits = limits
    self.shared = ServerShared(listener: listener.fd, wakeRead: pipe.read, wakeWrite: pipe.write)
    self.wakeDescriptors = pipe
  }

  /// The wake-up socket pair's descriptors, so leak tests can follow them to their close.
  package let wakeDescriptors: (read: Int32, write: Int32)

  /// Serves requests until the calling task is cancelled or ``close()`` is called, then closes
  /// the listening socket and every connection, waits for running handlers (which are
  /// cancelled), and returns. A server runs at most once.
  ///
  /// - Parameter handler: Called once per valid request; its response is sent with
  ///   `Connection: close`. It may run concurrently with itself.
  /// - Throws: ``LoopbackServerError/alreadyRunning`` or ``LoopbackServerError/closed`` if the
  ///   server cannot start, or ``LoopbackServerError/acceptFailed(errno:)`` /
  ///   ``LoopbackServerError/pollFailed(errno:)`` if the socket broke. Cancellation is not an
  ///   error: `run` returns normally.
  public func run(
    _ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
  ) async throws(LoopbackServerError) {
    let descriptors = try shared.beginRunning()
    let (events, sink) = AsyncStream.makeStream(of: ServerEvent.self)
    let shared = self.shared
    let limits = self.limits
    let threadName = "loopback:\(port)"
    let thread = Thread {
      Socket.nameCurrentThread(threadName)
      let loop = EventLoop(
        listener: descriptors.listener, wakeRead: descriptors.wakeRead, limits: limits,
        shared: shared, events: sink)
      let failure = loop.run()
      shared.finishRunning()
      sink.yield(.finished(failure))
      sink.finish()
    }
    thread.start()

    let failure = await withTaskCancellationHandler {
      await withDiscardingTaskGroup(returning: LoopbackServerError?.self) { group in
        var failure: LoopbackServerError?
        for await event in events {
          switch event {
          case .request(let id, let request):
            // Its own task, so that the client going away cancels this handler alone; the
            // child forwards the server's cancellation to it.
            let work = Task {
              await ServerShared.$answering.withValue((shared, id)) { await handler(request) }
            }
            shared.registerHandler(id, work)
            group.addTask {
              let response = await withTaskCancellationHandler {
                await work.value
              } onCancel: {
                work.cancel()
              }
              shared.unregisterHandler(id)
              shared.post(id, HTTPResponse.wireBytes(for: response, method: request.method))
            }
          case .clientGone(let id):
            shared.cancelHandler(id)
          case .finished(let error):
            failure = error
          }
        }
        group.cancelAll()
        return failure
      }
    } onCancel: {
      shared.requestClose()
    }
    if let failure { throw failure }
  }

  /// Inside a ``run(_:)`` handler: runs `callback` once the response to the request being
  /// handled has been written to the socket, or can no longer be (the client went away, the
  /// server closed). Outside a handler it runs `callback` at once. `callback` runs on the
  /// server's thread and must return quickly.
  ///
  /// ```swift
  /// try await server.run { request in
  ///   LoopbackServer.whenAnswered { print("the page is on its way") }
  ///   return .html("<p>Done.</p>")
  /// }
  /// ```
  package static func whenAnswered(_ callback: @escaping @Sendable () -> Void) {
    guard let (shared, id) = ServerShared.answering else { return callback() }
    shared.whenAnswered(id, callback)
  }

  /// Stops the server: closes the listening socket immediately if ``run(_:)`` is not running,
  /// otherwise wakes it so it closes everything and returns. Idempotent and thread-safe.
  public func close() {
    shared.requestClose()
  }
}

enum ServerEvent: Sendable {
  case request(UInt64, HTTPRequest)
  /// The client of a request still being handled closed its connection.
  case clientGone(UInt64)
  case finished(LoopbackServerError?)
}

/// State shared between the server object, its `run` task and the event-loop thread.
///
/// Descriptor ownership: while `phase` is `.idle` the object owns the descriptors and
/// `requestClose` or `deinit` closes them; while `.running`/`.closing` the event loop uses them
/// without the lock and only `finishRunning` (called on the event-loop thread after the loop
/// ended) closes them. The wake pipe's write end is only written under the lock and only before
/// it is closed, so it is never written after being closed (and reused).
///
/// `@unchecked Sendable`: `state` is private and only touched inside `withState`, which holds
/// `lock`. An `NSLock` rather than `Synchronization.Mutex`, which ThreadSanitizer cannot see
/// on Linux (it reported false races here).
final class ServerShared: @unchecked Sendable {
  enum Phase {
    case idle
    case running
    case closing
    case closed
  }

  struct State {
    var phase: Phase = .idle
    var responses: [(id: UInt64, bytes: [UInt8])] = []
    /// The handlers running, by connection, so a client that goes away cancels its own.
    var handlers: [UInt64: Task<HTTPResponse, Never>] = [:]
    /// What to run once a connection's response is written or cannot be any more.
    var answerCallbacks: [UInt64: [@Sendable () -> Void]] = [:]
    let listener: Int32
    let wakeRead: Int32
    let wakeWrite: Int32

    mutating func closeDescriptors() {
      Socket.closeDescriptor(listener)
      Socket.closeDescriptor(wakeRead)
      Socket.closeDescriptor(wakeWrite)
      responses = []
      phase = .closed
    }
  }

  private let lock = NSLock()
  private var state: State

  /// The server and connection of the request a handler task is answering.
  @TaskLocal static var answering: (ServerShared, UInt64)?

  init(listener: Int32, wakeRead: Int32, wakeWrite: Int32) {
    state = State(listener: listener, wakeRead: wakeRead, wakeWrite: wakeWrite)
  }

  private func withState<T>(_ body: (inout State) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&state)
  }

  deinit {
    withState { state in
      if state.phase != .closed { state.closeDescriptors() }
    }
  }

  var isClosed: Bool {
    withState { $0.phase == .closed || $0.phase == .closing }
  }

  func beginRunning() throws(LoopbackServerError) -> (listener: Int32, wakeRead: Int32) {
    let result: Result<(listener: Int32, wakeRead: Int32), LoopbackServerError> =
      withState { state in
        switch state.phase {
        case .idle:
          state.phase = .running
          return .success((state.listener, state.wakeRead))
        case .running, .closing: return .failure(.alreadyRunning)
        case .closed: return .failure(.closed)
        }
      }
    return try result.get()
  }

  func requestClose() {
    withState { state in
      switch state.phase {
      case .idle:
        state.closeDescriptors()
      case .running:
        state.phase = .closing
        Socket.wake(state.wakeWrite)
      case .closing, .closed:
        break
      }
    }
  }

  func post(_ id: UInt64, _ bytes: [UInt8]) {
    withState { state in
      guard state.phase == .running else { return }
      state.responses.append((id, bytes))
      Socket.wake(state.wakeWrite)
    }
  }

  /// Registered by `run` before the connection's `clientGone` event can reach it (one
  /// stream, in order); removed by the handler's child task when it is done.
  func registerHandler(_ id: UInt64, _ task: Task<HTTPResponse, Never>) {
    withState { $0.handlers[id] = task }
  }

  func unregisterHandler(_ id: UInt64) {
    withState { _ = $0.handlers.removeValue(forKey: id) }
  }

  /// Cancels the handler of a request whose client went away (its answer has nowhere to go).
  func cancelHandler(_ id: UInt64) {
    withState { $0.handlers.removeValue(forKey: id) }?.cancel()
  }

  func takeResponses() -> (closing: Bool, responses: [(id: UInt64, bytes: [UInt8])]) {
    withState { state in
      let responses = state.responses
      state.responses = []
      return (state.phase != .running, responses)
    }
  }

  func finishRunning() {
    let callbacks = withState { state in
      state.closeDescriptors()
      defer { state.answerCallbacks = [:] }
      return state.answerCallbacks.values.flatMap { $0 }
    }
    for callback in callbacks { callback() }
  }

  /// Registers `callback` for connection `id`'s answer; runs it at once when the server has
  /// finished.
  func whenAnswered(_ id: UInt64, _ callback: @escaping @Sendable () -> Void) {
    let registered = withState { state -> Bool in
      guard state.phase != .closed else { return false }
      state.answerCallbacks[id, default: []].append(callback)
      return true
    }
    if !registered { callback() }
  }

  /// Connection `id`'s response was written, or the connection closed: runs its callbacks.
  func answered(_ id: UInt64) {
    let callbacks = withState { $0.answerCallbacks.removeValue(forKey: id) } ?? []
    for callback in callbacks { callback() }
  }
}
