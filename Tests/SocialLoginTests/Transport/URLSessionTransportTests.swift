import Foundation
import SocialLogin
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension TransportTests {
  /// `URLSessionTransport` against a real HTTP server on 127.0.0.1.
  @Suite(
    .enabled(
      if: PythonHTTPServer.isAvailable,
      "python3 is not installed: skipping the URLSessionTransport integration tests"),
    .timeLimit(.minutes(1)))
  struct URLSessionTransportTests {
    func withServer(
      _ body: (PythonHTTPServer, URLSessionTransport) async throws -> Void
    ) async throws {
      let server = try #require(try await PythonHTTPServer.start())
      let transport = URLSessionTransport()
      defer {
        transport.shutdown()
        server.stop()
      }
      try await body(server, transport)
    }

    @Test func returnsStatusHeadersBodyAndServerDate() async throws {
      try await withServer { server, transport in
        let before = Date().addingTimeInterval(-5)
        let response = try await transport.send(TransportRequest(url: server.url("/json?a=1")))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.body == Data(#"{"ok":true,"n":1}"#.utf8))
        let date = try #require(response.serverDate)
        #expect(date > before && date < Date().addingTimeInterval(5))
      }
    }

    @Test func sendsMethodHeadersAndBody() async throws {
      try await withServer { server, transport in
        let request = TransportRequest.form(
          url: server.url("/echo?x=1"), fields: [("grant_type", "refresh_token"), ("a b", "☃")],
          headers: [
            "Authorization": FormEncoding.basicAuthorization(clientID: "id", clientSecret: "s")
          ])
        let echo = try await transport.send(request).decodeJSON(PythonHTTPServer.Echo.self)
        #expect(echo.method == "POST")
        #expect(echo.path == "/echo?x=1")
        #expect(echo.body == "grant_type=refresh_token&a+b=%E2%98%83")
        #expect(echo.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(echo.headers["authorization"] == "Basic aWQ6cw==")
        #expect(echo.headers["cookie"] == nil)
      }
    }

    @Test func doesNotFollowRedirects() async throws {
      try await withServer { server, transport in
        let response = try await transport.send(TransportRequest(url: server.url("/redirect")))
        #expect(response.status == 302)
        #expect(response.headers["Location"] == "/json")
        #expect(response.body == Data("moved".utf8))
      }
    }

    @Test func returns503WithRetryAfter() async throws {
      try await withServer { server, transport in
        let response = try await transport.send(TransportRequest(url: server.url("/unavailable")))
        let now = Date()
        #expect(response.status == 503)
        #expect(response.retryAfter(now: now) == now.addingTimeInterval(120))
      }
    }

    @Test(
      "a body over the cap throws responseTooLarge",
      arguments: ["/big", "/big-stream"])
    func capsTheResponseBody(path: String) async throws {
      try await withServer { server, transport in
        let request = TransportRequest(url: server.url(path), maxResponseBytes: 64 * 1024)
        await #expect {
          try await transport.send(request)
        } throws: { error in
          (error as? AuthError)?.code == .responseTooLarge
        }
        // The same body fits under a larger cap.
        let response = try await transport.send(
          TransportRequest(url: server.url(path), maxResponseBytes: 2 << 20))
        #expect(response.body.count == 2 << 20)
      }
    }

    @Test func headIsNotJudgedByItsContentLength() async throws {
      try await withServer { server, transport in
        let request = TransportRequest(
          method: "HEAD", url: server.url("/big"), maxResponseBytes: 1024)
        let response = try await transport.send(request)
        #expect(response.status == 200)
        #expect(response.headers["Content-Length"] == "\(2 << 20)")
        #expect(response.body.isEmpty)
      }
    }

    @Test func timesOut() async throws {
      try await withServer { server, transport in
        let request = TransportRequest(
          url: server.url("/slow?seconds=60"), timeout: .milliseconds(300))
        await #expect {
          try await transport.send(request)
        } throws: { error in
          guard let error = error as? AuthError else { return false }
          return error.code == .timedOut && error.isTransient
        }
      }
    }

    /// A timeout, or a connection closed after the request was sent, lost the answer: the
    /// server may have acted on the request (spent a refresh token).
    @Test func aTimeoutOrADroppedConnectionLosesTheAnswer() async throws {
      try await withServer { server, transport in
        let slow = await #expect(throws: AuthError.self) {
          try await transport.send(
            TransportRequest(url: server.url("/slow?seconds=60"), timeout: .milliseconds(300)))
        }
        #expect(slow?.answerLost == true)
        let dropped = await #expect(throws: AuthError.self) {
          try await transport.send(
            TransportRequest(method: "POST", url: server.url("/drop"), body: Data("a=1".utf8)))
        }
        #expect(dropped?.code == .network)
        #expect(dropped?.answerLost == true, "\(String(describing: dropped))")
      }
    }

    @Test func subSecondTimeoutLetsAFastResponseThrough() async throws {
      // swift-corelibs-foundation truncates `timeoutInterval` to whole seconds: 0.5 s would
      // fail at once if it were passed through.
      try await withServer { server, transport in
        let request = TransportRequest(url: server.url("/json"), timeout: .milliseconds(500))
        let response = try await transport.send(request)
        #expect(response.status == 200)
      }
    }

    @Test func timeoutBoundsTheWholeExchangeNotJustIdleTime() async throws {
      try await withServer { server, transport in
        let request = TransportRequest(url: server.url("/trickle"), timeout: .milliseconds(700))
        await #expect {
          try await transport.send(request)
        } throws: { error in
          (error as? AuthError)?.code == .timedOut
        }
      }
    }

    @Test func cancellingTheCallerThrowsCancellationErrorPromptly() async throws {
      try await withServer { server, transport in
        let task = Task {
          try await transport.send(TransportRequest(url: server.url("/slow?seconds=60")))
        }
        await server.waitForHit("/slow")
        task.cancel()
        // Without cancellation the server would answer 200 after 60 s (the request times out at 30 s).
        await #expect(throws: CancellationError.self) { try await task.value }
        // The transport still works afterwards.
        let after = try await transport.send(TransportRequest(url: server.url("/json")))
        #expect(after.status == 200)
      }
    }

    @Test func alreadyCancelledCallerThrowsCancellationError() async throws {
      try await withServer { server, transport in
        let url = server.url("/json")
        let task = Task {
          withUnsafeCurrentTask { $0?.cancel() }
          return try await transport.send(TransportRequest(url: url))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
      }
    }

    @Test func concurrentRequestsCompleteIndependently() async throws {
      try await withServer { server, transport in
        try await withThrowingTaskGroup(of: Int.self) { group in
          for index in 0..<8 {
            let path = index.isMultiple(of: 2) ? "/json" : "/redirect"
            group.addTask {
              try await transport.send(TransportRequest(url: server.url(path))).status
            }
          }
          var statuses: [Int] = []
          for try await status in group { statuses.append(status) }
          #expect(statuses.sorted() == [200, 200, 200, 200, 302, 302, 302, 302])
        }
      }
    }

    @Test func connectionRefusedIsANetworkErrorWithoutTheQuery() async throws {
      // Port 1 on loopback: nothing listens there.
      let transport = URLSessionTransport()
      defer { transport.shutdown() }
      let url = try #require(URL(string: "http://127.0.0.1:1/token?refresh_token=SECRET-RT#frag"))
      await #expect {
        try await transport.send(TransportRequest(url: url, timeout: .seconds(10)))
      } throws: { error in
        guard let error = error as? AuthError else { return false }
        let text = error.description + error.debugDescription
        return error.code == .network && error.isTransient && error.underlying is URLError
          && text.contains("127.0.0.1:1/token") && !text.contains("SECRET-RT")
          && !text.contains("refresh_token") && !error.answerLost
      }
    }

    @Test func sendAfterShutdownThrowsNetwork() async throws {
      let transport = URLSessionTransport()
      transport.shutdown()
      transport.shutdown()  // idempotent
      let url = try #require(URL(string: "http://127.0.0.1:1/"))
      await #expect {
        try await transport.send(TransportRequest(url: url))
      } throws: { error in
        (error as? AuthError)?.code == .network
      }
    }

    @Test func shutdownFailsRequestsInFlight() async throws {
      try await withServer { server, transport in
        let task = Task {
          try await transport.send(TransportRequest(url: server.url("/slow?seconds=60")))
        }
        await server.waitForHit("/slow")
        transport.shutdown()
        await #expect {
          try await task.value
        } throws: { error in
          (error as? AuthError)?.code == .network
        }
      }
    }

    @Test func customConfigurationStillRefusesCookiesAndRedirects() async throws {
      try await withServer { server, _ in
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["X-Extra": "1"]
        let transport = URLSessionTransport(configuration: configuration)
        defer { transport.shutdown() }
        let response = try await transport.send(TransportRequest(url: server.url("/redirect")))
        #expect(response.status == 302)
        #expect(configuration.httpCookieStorage != nil, "the caller's configuration is not mutated")
      }
    }
  }
}
