import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

extension TransportTests {
  @Suite(.timeLimit(.minutes(5))) struct StubTransportTests {
    static func request(
      _ path: String, method: String = "POST", body: String? = nil
    ) throws -> TransportRequest {
      let url = try #require(URL(string: "https://auth.test\(path)?q=1"))
      return TransportRequest(method: method, url: url, body: body.map { Data($0.utf8) })
    }

    @Test func repliesInFIFOOrderPerRoute() async throws {
      let stub = StubTransport()
      stub.on("POST", "/token", reply: .json(#"{"n":1}"#))
      stub.on("GET", "/me", reply: .status(204))
      stub.on("POST", "/token", reply: .json(#"{"n":2}"#, status: 201))
      let first = try await stub.send(Self.request("/token"))
      let me = try await stub.send(Self.request("/me", method: "GET"))
      let second = try await stub.send(Self.request("/token"))
      #expect(first.status == 200)
      #expect(first.headers["Content-Type"] == "application/json")
      #expect(first.body == Data(#"{"n":1}"#.utf8))
      #expect(me.status == 204)
      #expect(second.status == 201)
      #expect(second.body == Data(#"{"n":2}"#.utf8))
      #expect(stub.unusedReplyCount == 0)
    }

    @Test func oneShotRepliesGoBeforeRepeatingOnes() async throws {
      let stub = StubTransport()
      stub.on("GET", "/me", repeating: true, reply: .json("{}"))
      stub.on("GET", "/me", reply: .status(503))
      #expect(try await stub.send(Self.request("/me", method: "GET")).status == 503)
      for _ in 0..<3 {
        #expect(try await stub.send(Self.request("/me", method: "GET")).status == 200)
      }
      #expect(stub.requestCount(path: "/me") == 4)
    }

    @Test func methodIsMatchedCaseInsensitivelyAndNilMatchesAny() async throws {
      let stub = StubTransport()
      stub.on("post", "/token", reply: .status(200))
      stub.on(nil, "/revoke", repeating: true, reply: .status(200))
      #expect(try await stub.send(Self.request("/token", method: "GET")).status == 404)
      #expect(try await stub.send(Self.request("/token", method: "POST")).status == 200)
      #expect(try await stub.send(Self.request("/revoke", method: "DELETE")).status == 200)
      #expect(try await stub.send(Self.request("/revoke", method: "POST")).status == 200)
    }

    @Test func predicateSelectsAmongRepliesOfARoute() async throws {
      let stub = StubTransport()
      let isRefresh: StubTransport.Predicate = { request in
        String(decoding: request.body ?? Data(), as: UTF8.self).contains("grant_type=refresh_token")
      }
      stub.on("POST", "/token", where: isRefresh, reply: .json(#"{"kind":"refresh"}"#))
      stub.on("POST", "/token", reply: .json(#"{"kind":"code"}"#))
      let code = try await stub.send(Self.request("/token", body: "grant_type=authorization_code"))
      let refresh = try await stub.send(Self.request("/token", body: "grant_type=refresh_token"))
      #expect(code.body == Data(#"{"kind":"code"}"#.utf8))
      #expect(refresh.body == Data(#"{"kind":"refresh"}"#.utf8))
    }

    @Test func unmatchedRequestsGet404AndAreRecorded() async throws {
      let stub = StubTransport()
      stub.on("POST", "/token", reply: .status(200))
      let response = try await stub.send(Self.request("/nowhere", method: "GET"))
      #expect(response.status == 404)
      let body = String(decoding: response.body, as: UTF8.self)
      #expect(body.contains("GET /nowhere"))
      #expect(body.contains("POST /token"))
      #expect(stub.requests.map(\.url.path) == ["/nowhere"])
      #expect(stub.requestCount(path: "/nowhere", method: "GET") == 1)
      #expect(stub.requestCount(path: "/nowhere", method: "POST") == 0)
    }

    @Test func defaultHandlerAnswersUnmatchedRequests() async throws {
      let stub = StubTransport { request in
        TransportResponse(status: 299, body: Data(request.method.utf8))
      }
      stub.on("GET", "/scripted", reply: .status(200))
      #expect(try await stub.send(Self.request("/other", method: "PUT")).body == Data("PUT".utf8))
      #expect(try await stub.send(Self.request("/scripted", method: "GET")).status == 200)
      stub.setDefaultHandler(nil)
      #expect(try await stub.send(Self.request("/other", method: "PUT")).status == 404)
    }

    @Test func failureRepliesThrow() async throws {
      let stub = StubTransport()
      stub.on("POST", "/token", reply: .failure(AuthError(.network, "offline")))
      stub.on("POST", "/token", reply: .handler { _ in throw AuthError(.timedOut, "slow") })
      await #expect {
        try await stub.send(Self.request("/token"))
      } throws: { ($0 as? AuthError)?.code == .network }
      await #expect {
        try await stub.send(Self.request("/token"))
      } throws: { ($0 as? AuthError)?.code == .timedOut }
      #expect(stub.requestCount(path: "/token") == 2)
    }

    @Test func handlerSeesTheRequest() async throws {
      let stub = StubTransport()
      stub.on(
        "POST", "/echo",
        reply: .handler { request in
          TransportResponse(status: 200, body: request.body ?? Data())
        })
      stub.on("GET", "/form", reply: .form([("oauth_token", "a b"), ("x", "1")]))
      #expect(try await stub.send(Self.request("/echo", body: "hi")).body == Data("hi".utf8))
      let form = try await stub.send(Self.request("/form", method: "GET"))
      #expect(try form.formFields() == ["oauth_token": "a b", "x": "1"])
    }

    @Test func gateHoldsResponsesUntilReleased() async throws {
      let stub = StubTransport()
      stub.on("POST", "/token", repeating: true, reply: .status(200))
      stub.holdResponses()
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<5 {
          group.addTask { try await stub.send(Self.request("/token")).status }
        }
        await stub.waitUntilHeld(count: 5)
        #expect(stub.heldCount == 5)
        #expect(stub.requestCount(path: "/token") == 5)
        stub.release()
        var statuses: [Int] = []
        for try await status in group { statuses.append(status) }
        #expect(statuses == Array(repeating: 200, count: 5))
      }
      #expect(stub.heldCount == 0)
      // The gate is open again.
      #expect(try await stub.send(Self.request("/token")).status == 200)
    }

    @Test func repliesScriptedWhileHeldAreUsed() async throws {
      let stub = StubTransport()
      stub.holdResponses()
      async let response = stub.send(Self.request("/token"))
      await stub.waitUntilHeld(count: 1)
      stub.on("POST", "/token", reply: .status(418))
      stub.release()
      #expect(try await response.status == 418)
    }

    @Test func releaseOneLetsRequestsThroughInOrder() async throws {
      let stub = StubTransport()
      stub.on(nil, "/a", reply: .status(201))
      stub.on(nil, "/b", reply: .status(202))
      stub.holdResponses()
      async let first = stub.send(Self.request("/a"))
      await stub.waitUntilHeld(count: 1)
      async let second = stub.send(Self.request("/b"))
      await stub.waitUntilHeld(count: 2)
      #expect(stub.releaseOne())
      #expect(try await first.status == 201)
      #expect(stub.heldCount == 1)
      #expect(stub.releaseOne())
      #expect(try await second.status == 202)
      #expect(!stub.releaseOne())
    }

    @Test func cancellingAHeldRequestThrowsCancellationError() async throws {
      let stub = StubTransport()
      stub.on("POST", "/token", repeating: true, reply: .status(200))
      stub.holdResponses()
      let cancelled = Task { try await stub.send(Self.request("/token")) }
      let waiting = Task { try await stub.send(Self.request("/token")) }
      await stub.waitUntilHeld(count: 2)
      cancelled.cancel()
      await #expect(throws: CancellationError.self) { try await cancelled.value }
      #expect(stub.heldCount == 1)
      stub.release()
      #expect(try await waiting.value.status == 200)
    }

    @Test func alreadyCancelledTaskDoesNotPark() async throws {
      let stub = StubTransport()
      stub.holdResponses()
      let task = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await stub.send(Self.request("/token"))
      }
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(stub.heldCount == 0)
      #expect(stub.requests.count == 1)
    }

    @Test func waitForRequestsResumesOnArrival() async throws {
      let stub = StubTransport()
      async let waited: Void = stub.waitForRequests(count: 2)
      _ = try await stub.send(Self.request("/x"))
      _ = try await stub.send(Self.request("/y"))
      await waited
      #expect(stub.requests.count == 2)
      await stub.waitForRequests(count: 1)  // already satisfied
    }

    @Test func concurrentCallersConsumeEachOneShotReplyOnce() async throws {
      let stub = StubTransport()
      for status in 200..<250 { stub.on("POST", "/token", reply: .status(status)) }
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<60 {
          group.addTask { try await stub.send(Self.request("/token")).status }
        }
        var statuses: [Int] = []
        for try await status in group { statuses.append(status) }
        return statuses
      }
      #expect(statuses.filter { $0 != 404 }.sorted() == Array(200..<250))
      #expect(statuses.filter { $0 == 404 }.count == 10)
      #expect(stub.unusedReplyCount == 0)
    }
  }
}

/// The testing kit's waits have deadlines: a regression fails with a message, never hangs.
@Suite(.timeLimit(.minutes(1)))
struct TestingKitDeadlineTests {
  @Test func waitingForSleepersThatNeverComeThrows() async {
    let clock = ManualClock()
    let error = await #expect(throws: WaitTimeout.self) {
      try await clock.waitForSleepers(count: 1, timeout: .milliseconds(50))
    }
    #expect(error?.description.contains("sleepers") == true)
  }

  @Test func waitingForGateWaitersThatNeverComeThrows() async {
    await #expect(throws: WaitTimeout.self) {
      try await Gate().waitForWaiters(count: 1, timeout: .milliseconds(50))
    }
  }
}
