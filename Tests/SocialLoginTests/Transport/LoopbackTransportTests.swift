import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

extension TransportTests {
  /// `LoopbackTransport` (the benches' transport) against a real HTTP server on 127.0.0.1.
  @Suite(
    .enabled(
      if: PythonHTTPServer.isAvailable,
      "python3 is not installed: skipping the LoopbackTransport tests"),
    .timeLimit(.minutes(1)))
  struct LoopbackTransportTests {
    func withServer(_ body: (PythonHTTPServer) async throws -> Void) async throws {
      let server = try #require(try await PythonHTTPServer.start())
      defer { server.stop() }
      try await body(server)
    }

    @Test func returnsStatusHeadersAndBody() async throws {
      try await withServer { server in
        let response = try await LoopbackTransport().send(
          TransportRequest(url: server.url("/json?a=1")))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.body == Data(#"{"ok":true,"n":1}"#.utf8))
        let redirect = try await LoopbackTransport().send(
          TransportRequest(url: server.url("/redirect")))
        #expect(redirect.status == 302)
        #expect(redirect.headers["location"] == "/json")
      }
    }

    @Test func sendsMethodHeadersAndBody() async throws {
      try await withServer { server in
        let request = TransportRequest.form(
          url: server.url("/echo?x=1"), fields: [("grant_type", "refresh_token")],
          headers: ["Authorization": "Basic aWQ6cw=="])
        let echo = try await LoopbackTransport().send(request).decodeJSON(
          PythonHTTPServer.Echo.self)
        #expect(echo.method == "POST")
        #expect(echo.path == "/echo?x=1")
        #expect(echo.body == "grant_type=refresh_token")
        #expect(echo.headers["authorization"] == "Basic aWQ6cw==")
      }
    }

    @Test func boundsTheAnswerAndTheWait() async throws {
      try await withServer { server in
        var big = TransportRequest(url: server.url("/big-stream"))
        big.maxResponseBytes = 100_000
        let tooLarge = await #expect(throws: AuthError.self) {
          try await LoopbackTransport().send(big)
        }
        #expect(tooLarge?.code == .responseTooLarge)
        var slow = TransportRequest(url: server.url("/slow?seconds=3"))
        slow.timeout = .milliseconds(300)
        let late = await #expect(throws: AuthError.self) {
          try await LoopbackTransport().send(slow)
        }
        #expect(late?.code == .timedOut)
        #expect(late?.answerLost == true)
        // A minimum timeout gives the same request the time its server takes.
        var patient = TransportRequest(url: server.url("/slow?seconds=1"))
        patient.timeout = .milliseconds(300)
        let answer = try await LoopbackTransport(minimumTimeout: .seconds(30)).send(patient)
        #expect(answer.status == 200)
        // 30 bytes over 3 s: no single wait runs out, the whole exchange does (without the
        // overall deadline the answer would arrive complete).
        var trickle = TransportRequest(url: server.url("/trickle"))
        trickle.timeout = .milliseconds(800)
        let trickled = await #expect(throws: AuthError.self) {
          try await LoopbackTransport().send(trickle)
        }
        #expect(trickled?.code == .timedOut)
        // The request was read and the connection closed without an answer.
        let dropped = await #expect(throws: AuthError.self) {
          try await LoopbackTransport().send(TransportRequest(url: server.url("/drop")))
        }
        #expect(dropped?.code == .network)
        #expect(dropped?.answerLost == true)
      }
    }

    @Test func refusesAnythingButLoopbackHTTP() async throws {
      for url in ["https://127.0.0.1:1/x", "http://example.com:80/x", "http://127.0.0.1/x"] {
        let error = await #expect(throws: AuthError.self) {
          try await LoopbackTransport().send(TransportRequest(url: URL(string: url)!))
        }
        #expect(error?.code == .network)
        #expect(error?.answerLost == false, "nothing was sent")
      }
    }

    @Test(arguments: [
      "HTTP/1.1 abc OK\r\n\r\n", "SMTP 220 hi\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n",
    ])
    func malformedHeadsAreTypedErrors(head: String) throws {
      #expect(throws: AuthError.self) { try LoopbackTransport.parseHead(Array(head.utf8)) }
    }

    @Test func aHeadIsParsedOnceComplete() throws {
      #expect(try LoopbackTransport.parseHead(Array("HTTP/1.1 200 OK\r\nA: b".utf8)) == nil)
      let head = try #require(
        try LoopbackTransport.parseHead(
          Array("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nhi".utf8)))
      #expect(head.status == 201)
      #expect(head.length == 2)
      #expect(head.bodyStart == 43)
    }
  }
}
