import Foundation
import SocialLogin

/// A throwaway HTTP/1.1 server on 127.0.0.1, written in Python, for testing the real
/// `URLSessionTransport` against real sockets. It is independent of the `LoopbackHTTP` target.
///
/// Routes: `/json` (200, JSON, `Date`), `/redirect` (302 to `/json`), `/big` (2 MiB with
/// `Content-Length`), `/big-stream` (2 MiB without `Content-Length`), `/slow?seconds=2`, `/trickle` (30 bytes over 3 s),
/// `/unavailable` (503, `Retry-After: 120`), `/echo` (the request as JSON).
///
/// The server prints `HIT <path>` for every request, so tests can wait for a request to arrive
/// without sleeping. It exits when the test process closes its standard input, so it never
/// outlives the tests, even after a crash.
final class PythonHTTPServer: Sendable {
  /// What `/echo` answers: the request as the server received it.
  struct Echo: Decodable {
    var method: String
    var path: String
    var headers: [String: String]
    var body: String
  }

  /// `python3`, when installed.
  static let python: String? = {
    var candidates = ["/usr/bin/python3", "/usr/local/bin/python3"]
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    candidates += path.split(separator: ":").map { "\($0)/python3" }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// Whether the integration tests can run.
  static var isAvailable: Bool { python != nil }

  static let script = #"""
    import http.server, json, os, sys, threading, time, urllib.parse

    def watch_stdin():
        sys.stdin.read()
        os._exit(0)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def route(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            print("HIT " + url.path, flush=True)
            if url.path == "/json":
                self.reply(200, b'{"ok":true,"n":1}', [("Content-Type", "application/json")])
            elif url.path == "/redirect":
                self.reply(302, b"moved", [("Location", "/json")])
            elif url.path == "/big":
                self.reply(200, b"x" * (2 << 20))
            elif url.path == "/big-stream":
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                for _ in range(32):
                    self.wfile.write(b"y" * (64 << 10))
                self.close_connection = True
            elif url.path == "/slow":
                time.sleep(float(query.get("seconds", ["2"])[0]))
                self.reply(200, b"late")
            elif url.path == "/trickle":
                self.send_response(200)
                self.send_header("Content-Length", "30")
                self.end_headers()
                for _ in range(30):
                    self.wfile.write(b"t")
                    self.wfile.flush()
                    time.sleep(0.1)
            elif url.path == "/drop":
                # The request was read; the connection closes with no answer at all.
                self.close_connection = True
            elif url.path == "/unavailable":
                self.reply(503, b"try later", [("Retry-After", "120")])
            elif url.path == "/echo":
                echo = {
                    "method": self.command,
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body.decode("utf-8", "replace"),
                }
                self.reply(200, json.dumps(echo).encode(), [("Content-Type", "application/json")])
            else:
                self.reply(404, b"no route")

        do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = route

    threading.Thread(target=watch_stdin, daemon=True).start()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()
    """#

  let port: Int
  private let process: Process
  private let input: Pipe
  private let output: LineLog

  private init(port: Int, process: Process, input: Pipe, output: LineLog) {
    self.port = port
    self.process = process
    self.input = input
    self.output = output
  }

  deinit { stop() }

  /// Starts a server, or returns `nil` when `python3` is missing.
  static func start() async throws -> PythonHTTPServer? {
    guard let python else { return nil }
    let scriptURL = FileManager.default.temporaryDirectory
      .appendingPathComponent("sociallogin-test-server-\(UUID().uuidString).py")
    try Data(script.utf8).write(to: scriptURL)
    defer { try? FileManager.default.removeItem(at: scriptURL) }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-u", scriptURL.path]
    let input = Pipe()
    let stdout = Pipe()
    process.standardInput = input
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    let log = LineLog()
    let reader = stdout.fileHandleForReading
    try process.run()
    Thread {
      while true {
        let data = reader.availableData
        if data.isEmpty { break }
        log.append(data)
      }
      log.close()
    }.start()
    guard let line = await log.first(where: { $0.hasPrefix("PORT ") }),
      let port = Int(line.dropFirst("PORT ".count))
    else {
      process.terminate()
      throw ServerError.didNotStart
    }
    return PythonHTTPServer(port: port, process: process, input: input, output: log)
  }

  /// `http://127.0.0.1:<port><pathAndQuery>`.
  func url(_ pathAndQuery: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)") ?? URL(fileURLWithPath: "/")
  }

  /// Suspends until the server has received a request for `path`.
  func waitForHit(_ path: String) async {
    _ = await output.first { $0 == "HIT \(path)" }
  }

  /// Stops the server.
  func stop() {
    try? input.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
  }

  enum ServerError: Error { case didNotStart }
}

/// Lines read from the server's standard output, with waiters for lines to come.
final class LineLog: Sendable {
  private struct Waiter {
    var matches: @Sendable (String) -> Bool
    var continuation: CheckedContinuation<String?, Never>
  }

  private struct State {
    var pending = Data()
    var lines: [String] = []
    var waiters: [Waiter] = []
    var isClosed = false
  }

  private let state = Locked(State())

  func append(_ data: Data) {
    let ready: [(Waiter, String)] = state.withLock { state in
      state.pending.append(data)
      var ready: [(Waiter, String)] = []
      while let newline = state.pending.firstIndex(of: 0x0A) {
        let line = String(decoding: state.pending[..<newline], as: UTF8.self)
        state.pending = Data(state.pending[(newline + 1)...])
        state.lines.append(line)
        var waiting: [Waiter] = []
        for waiter in state.waiters {
          if waiter.matches(line) { ready.append((waiter, line)) } else { waiting.append(waiter) }
        }
        state.waiters = waiting
      }
      return ready
    }
    for (waiter, line) in ready { waiter.continuation.resume(returning: line) }
  }

  func close() {
    let waiters = state.withLock { state in
      state.isClosed = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.continuation.resume(returning: nil) }
  }

  /// The first line, seen or to come, that `matches`; `nil` when the output ends first.
  func first(where matches: @escaping @Sendable (String) -> Bool) async -> String? {
    await withCheckedContinuation { continuation in
      let found: String?? = state.withLock { state in
        if let line = state.lines.first(where: matches) { return .some(line) }
        if state.isClosed { return .some(nil) }
        state.waiters.append(Waiter(matches: matches, continuation: continuation))
        return .none
      }
      if let found { continuation.resume(returning: found) }
    }
  }
}
