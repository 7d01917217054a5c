import Foundation
import LoopbackHTTP
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Socket tests: 127.0.0.1 / ::1 and ephemeral ports only. Serialized so timing assertions and
/// resource counts are not disturbed by sibling tests.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ServerTests {
  @Test func roundTripGETAndPOST() async throws {
    let server = try LoopbackServer()
    #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
    #expect(server.port != 0)
    try await withRunningServer(server, handler: echo) { server in
      let get = try await fetch(server.baseURL + "/callback?code=a%20b&state=x+y")
      #expect(get.status == 200)
      #expect(get.body == "GET /callback [code=a b,state=x y] ")
      let headers = Dictionary(
        uniqueKeysWithValues: get.headers.compactMap { key, value in
          (key as? String).map { ($0.lowercased(), "\(value)") }
        })
      #expect(headers["cache-control"] == "no-store")
      #expect(headers["connection"] == "close")
      #expect(headers["content-length"] == "\(get.body.utf8.count)")
      #expect(headers["content-type"] == "text/plain; charset=utf-8")

      let post = try await fetch(
        server.baseURL + "/token", method: "POST", body: Data("grant_type=x&code=y".utf8),
        headers: ["Content-Type": "application/x-www-form-urlencoded"])
      #expect(post.status == 200)
      #expect(post.body == "POST /token [] grant_type=x&code=y")
    }
  }

  @Test func largePostBodyRoundTrip() async throws {
    let server = try LoopbackServer()
    let handler: Handler = { .text("\($0.body.count) \($0.body.last ?? 0)") }
    try await withRunningServer(server, handler: handler) { server in
      let body = Data((0..<(1024 * 1024)).map { UInt8(truncatingIfNeeded: $0) })
      let post = try await fetch(server.baseURL + "/upload", method: "POST", body: body)
      #expect(post.status == 200)
      #expect(post.body == "1048576 255")
    }
  }

  @Test func malformedRequestsNeverReachTheHandler() async throws {
    let calls = Counter()
    let server = try LoopbackServer()
    let handler: Handler = { _ in
      calls.increment()
      return .text("handled")
    }
    try await withRunningServer(server, handler: handler) { server in
      let cases: [(String, String)] = [
        ("GET / HTTP/1.1\nHost: 127.0.0.1\n\n", "400"),
        ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: a\r\n b\r\n\r\n", "400"),
        ("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", "400"),
        ("GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", "505"),
        (
          "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "501"
        ),
        ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n", "413"),
        ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n", "414"),
      ]
      for (request, status) in cases {
        let response = await RawClient.exchange(port: server.port, request)
        #expect(response.hasPrefix("HTTP/1.1 \(status) "), "\(request.prefix(40)): \(response)")
        #expect(response.contains("Connection: close\r\n"))
      }
      #expect(calls.count == 0)
    }
  }

  @Test func oversizedHeadersGet431() async throws {
    let server = try LoopbackServer()
    try await withRunningServer(server, handler: echo) { server in
      var request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      for index in 0..<100 {
        request += "X-Filler-\(index): " + String(repeating: "v", count: 80) + "\r\n"
      }
      let response = await RawClient.exchange(port: server.port, request + "\r\n")
      #expect(response.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
    }
  }

  @Test func tooManyHeadersGet431() async throws {
    let server = try LoopbackServer()
    try await withRunningServer(server, handler: echo) { server in
      var request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      for index in 0..<100 { request += "X-\(index): v\r\n" }
      let response = await RawClient.exchange(port: server.port, request + "\r\n")
      #expect(response.hasPrefix("HTTP/1.1 431 "))
    }
  }

  @Test func tricklingClientIsDroppedAtTheAbsoluteDeadline() async throws {
    var limits = HTTPLimits.default
    limits.readTimeout = .milliseconds(200)
    let server = try LoopbackServer(limits: limits)
    try await withRunningServer(server, handler: echo) { server in
      let port = server.port
      let response = await offThread { () -> String in
        guard let client = RawClient(port: port) else { return "<no connect>" }
        defer { client.close() }
        // One byte every 50 ms: each read is quick, only the absolute deadline can stop it.
        let bytes = Array(
          ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
            + String(
              repeating: "z", count: 200)).utf8)
        for byte in bytes {
          guard client.send([byte]) else { break }
          if client.readable(within: .milliseconds(50)) { break }
        }
        return String(decoding: client.readAll(), as: UTF8.self)
      }
      // The request never completes (no blank line), so a 408 can only come from the deadline;
      // sending all 200+ bytes would take over 10 s, far past the 200 ms limit.
      #expect(response.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(response)")
    }
  }

  @Test func idleConnectionDoesNotStallOtherClients() async throws {
    var limits = HTTPLimits.default
    // Longer than the test session's request timeout: if the idle connection blocked the
    // server, the fetch below would fail instead of being answered.
    limits.readTimeout = .seconds(3600)
    let server = try LoopbackServer(limits: limits)
    try await withRunningServer(server, handler: echo) { server in
      // Like a browser's speculative preconnect: connects and never sends anything.
      let idle = try #require(RawClient(port: server.port))
      defer { idle.close() }
      let response = try await fetch(server.baseURL + "/cb?code=1")
      #expect(response.status == 200)
    }
  }

  @Test func expectContinueGets100ThenTheResponse() async throws {
    let server = try LoopbackServer()
    try await withRunningServer(server, handler: echo) { server in
      let port = server.port
      let (interim, final) = await offThread { () -> (String, String) in
        guard let client = RawClient(port: port) else { return ("", "") }
        defer { client.close() }
        client.send(
          "POST /t HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
        )
        let interim = client.read(until: "\r\n\r\n")
        client.send("ok")
        return (interim, String(decoding: client.readAll(), as: UTF8.self))
      }
      #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
      #expect(final.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(final.hasSuffix("\r\n\r\nPOST /t [] ok"))
    }
  }

  @Test func headResponsesHaveNoBody() async throws {
    let server = try LoopbackServer()
    let handler: Handler = { _ in .text("12345") }
    try await withRunningServer(server, handler: handler) { server in
      let response = await RawClient.exchange(
        port: server.port, "HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(response.contains("Content-Length: 5\r\n"))
      #expect(response.hasSuffix("\r\n\r\n"))
    }
  }

  @Test func unsafeResponseHeadersBecome500() async throws {
    let server = try LoopbackServer()
    let handler: Handler = { _ in
      // Reflecting input into a header must not allow response splitting.
      .redirect(to: "/x\r\nSet-Cookie: evil=1")
    }
    try await withRunningServer(server, handler: handler) { server in
      let response = await RawClient.exchange(
        port: server.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      #expect(response.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
      #expect(!response.contains("evil"))
    }
  }

  @Test func serverOwnsFramingHeaders() async throws {
    let server = try LoopbackServer()
    let handler: Handler = { _ in
      HTTPResponse(
        status: 201,
        headers: [
          "Content-Length": "999", "Connection": "keep-alive", "Cache-Control": "max-age=60",
          "Transfer-Encoding": "chunked", "X-Custom": "yes",
        ], body: Array("body".utf8))
    }
    try await withRunningServer(server, handler: handler) { server in
      let response = await RawClient.exchange(
        port: server.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      #expect(
        response == "HTTP/1.1 201 Created\r\nX-Custom: yes\r\nContent-Length: 4\r\n"
          + "Connection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
          + "Referrer-Policy: no-referrer\r\n\r\nbody")
    }
  }

  @Test func sameFixedPortCanBeReboundRightAfterClose() async throws {
    // The port is free only until something else in this process (the suites run in
    // parallel) binds it between our close and our rebind: such a collision starts over on
    // another port. A server that cannot rebind its own port fails every attempt.
    var lastError: (any Error)?
    for _ in 0..<5 {
      let first = try LoopbackServer()
      let port = first.port
      first.close()
      do {
        try await rebindTwice(port)
        return
      } catch let error as LoopbackServerError where error == .addressInUse(port: port) {
        lastError = error
      }
    }
    Issue.record(
      "could not rebind a closed port in five attempts: \(String(describing: lastError))")
  }

  /// Binds `port` twice in a row, serving one request each time (which leaves the server side
  /// in TIME_WAIT: SO_REUSEADDR matters), and checks a second bind while it runs is refused.
  func rebindTwice(_ port: UInt16) async throws {
    for round in 0..<2 {
      let server = try LoopbackServer(port: port)
      #expect(server.port == port)
      try await withRunningServer(server, handler: echo) { server in
        let response = try await fetch(server.baseURL + "/round\(round)")
        #expect(response.status == 200)
        #expect(throws: LoopbackServerError.addressInUse(port: port)) {
          try LoopbackServer(port: port)
        }
      }
    }
  }

  @Test(.enabled(if: ipv6LoopbackAvailable, "this host has no IPv6 loopback (::1)"))
  func ipv6Loopback() async throws {
    let server = try LoopbackServer(bindTo: .ipv6)
    #expect(server.baseURL == "http://[::1]:\(server.port)")
    let handler: Handler = { .text($0.remoteAddress) }
    try await withRunningServer(server, handler: handler) { server in
      let raw = await RawClient.exchange(
        port: server.port, "GET / HTTP/1.1\r\nHost: [::1]:\(server.port)\r\n\r\n",
        address: .ipv6)
      #expect(raw.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(raw.contains("\r\n\r\n[::1]:"))
      // Note: swift-corelibs-foundation's URLSession rejects `http://[::1]:port/` with
      // NSURLErrorBadURL (-1000) on Linux, so this test uses a raw client only.
    }
  }

  @Test func cancellationReturnsPromptlyAndFreesThePort() async throws {
    let server = try LoopbackServer()
    let port = server.port
    let handlerStarted = AsyncStream.makeStream(of: Void.self)
    let serving = Task {
      try await server.run { _ in
        handlerStarted.continuation.yield()
        // A handler stuck waiting: cancellation of `run` must reach it.
        try? await Task.sleep(for: .seconds(60))
        return .text("late")
      }
    }
    let stuckClient = Task {
      await RawClient.exchange(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    }
    for await _ in handlerStarted.stream { break }
    serving.cancel()
    try await serving.value
    #expect(server.isClosed)
    // The stuck client sees the connection closed without a response.
    #expect(await stuckClient.value == "")
    #expect(ProcessResources.socketsOwned(onPort: port) == 0)
    let again = try LoopbackServer(port: port)
    again.close()
  }

  @Test func closeStopsRunAndServerRunsOnce() async throws {
    let server = try LoopbackServer()
    let serving = Task { try await server.run(echo) }
    _ = try await fetch(server.baseURL + "/")
    await #expect(throws: LoopbackServerError.alreadyRunning) { try await server.run(echo) }
    server.close()
    server.close()
    try await serving.value
    await #expect(throws: LoopbackServerError.closed) { try await server.run(echo) }

    let neverRun = try LoopbackServer()
    let port = neverRun.port
    neverRun.close()
    #expect(ProcessResources.socketsOwned(onPort: port) == 0)
  }

  @Test func alreadyCancelledTaskReturnsImmediately() async throws {
    let server = try LoopbackServer()
    let serving = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await server.run(echo)
    }
    try await serving.value
    #expect(server.isClosed)
  }

  @Test func manySequentialRequests() async throws {
    let server = try LoopbackServer()
    try await withRunningServer(server, handler: echo) { server in
      let count = 200
      for index in 0..<count {
        let response = try await fetch(server.baseURL + "/n?i=\(index)")
        #expect(response.status == 200)
        #expect(response.body == "GET /n [i=\(index)] ")
      }
    }
  }

  @Test func manySequentialRawRequests() async throws {
    let server = try LoopbackServer()
    try await withRunningServer(server, handler: echo) { server in
      let port = server.port
      let count = 1000
      let ok = await offThread { () -> Int in
        var ok = 0
        for index in 0..<count {
          guard let client = RawClient(port: port) else { continue }
          client.send("GET /r?i=\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
          let response = String(decoding: client.readAll(), as: UTF8.self)
          client.close()
          if response.hasSuffix("GET /r [i=\(index)] ") { ok += 1 }
        }
        return ok
      }
      #expect(ok == count)
    }
  }

  @Test func noDescriptorOrThreadLeaks() async throws {
    // Other suites run in parallel in this process, so whole-process counts are noise. Every
    // resource a server owns is followed by name instead: its TCP sockets by port, its wake-up
    // socket pair by inode, its event-loop thread by its name "loopback:<port>".
    var ports: [UInt16] = []
    var wakeInodes: [String] = []
    for round in 0..<20 {
      let server = try LoopbackServer()
      ports.append(server.port)
      let wake = [server.wakeDescriptors.read, server.wakeDescriptors.write]
      wakeInodes += wake.compactMap(ProcessResources.socketInode(ofDescriptor:))
      let serving = Task { try await server.run(echo) }
      for _ in 0..<3 {
        let response = await RawClient.exchange(
          port: server.port, "GET /\(round) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(response.hasPrefix("HTTP/1.1 200 OK"))
      }
      // The probes can see a live server's resources, so they would see a leaked one. The
      // thread list is read from /proc/self/task while other suites' threads come and go,
      // which can skip an entry (seen once in a full run): a few reads.
      #expect(
        (0..<10).contains { _ in
          ProcessResources.threadNames().contains("loopback:\(server.port)")
        })
      // /proc/net/tcp is read in pieces that other suites' connections shift under the
      // reader, so one read can miss a live entry (seen once in a full run): a few reads.
      #expect((0..<10).contains { _ in ProcessResources.socketsOwned(onPort: server.port) >= 1 })
      // One malformed request (lingering close path) and one idle connection per round.
      _ = await RawClient.exchange(port: server.port, "BAD\r\n\r\n")
      let idle = RawClient(port: server.port)
      if round.isMultiple(of: 2) { serving.cancel() } else { server.close() }
      try await serving.value
      idle?.close()
    }
    #expect(wakeInodes.count == 40)
    for port in ports { #expect(ProcessResources.socketsOwned(onPort: port) == 0) }
    let openInodes = ProcessResources.openSocketInodes()
    #expect(openInodes.isDisjoint(with: wakeInodes), "a wake-up socket pair was not closed")
    let serverThreads = Set(ports.map { "loopback:\($0)" })
    // Thread exits reach /proc a moment after the thread's last Swift code ran.
    let threadsGone = await ProcessResources.eventually {
      ProcessResources.threadNames().isDisjoint(with: serverThreads)
    }
    #expect(threadsGone, "event-loop threads still alive")
  }

  @Test func bindErrorsAreTyped() throws {
    let server = try LoopbackServer()
    defer { server.close() }
    #expect(throws: LoopbackServerError.addressInUse(port: server.port)) {
      try LoopbackServer(port: server.port)
    }
    #expect(LoopbackServerError.addressInUse(port: 1).description == "port 1 is already in use")
    #expect(LoopbackServerError.bindFailed(errno: 98).description.contains("errno 98"))
  }
}
