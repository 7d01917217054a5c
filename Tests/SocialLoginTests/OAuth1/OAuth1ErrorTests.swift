import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

extension OAuth1Tests {
  @Suite(.timeLimit(.minutes(5))) struct ErrorTests {
    static let tokenSecret: Secret = "TOKEN-SECRET-abc123"
    static let verifier: Secret = "VERIFIER-def456"

    func accessTokenError(_ reply: StubTransport.Reply, clock: ManualClock = ManualClock())
      async throws -> AuthError
    {
      let stub = StubTransport()
      stub.on("POST", "/oauth/access_token", reply: reply)
      let client = FlowFixture.client(stub, clock: clock)
      do {
        _ = try await client.accessToken(
          requestToken: "req-token", secret: Self.tokenSecret, verifier: Self.verifier)
      } catch let error as AuthError {
        return error
      }
      Issue.record("expected an AuthError")
      return AuthError(.invalidResponse, "none")
    }

    @Test(
      "v1.1 JSON errors become providerError with the provider code",
      arguments: [
        ("89", "Invalid or expired token."),
        ("32", "Could not authenticate you."),
      ])
    func v11JSONErrors(code: String, message: String) async throws {
      let error = try await accessTokenError(
        .json(#"{"errors":[{"code":\#(code),"message":"\#(message)"}]}"#, status: 401))
      #expect(error.code == .providerError)
      #expect(error.providerCode == code)
      #expect(error.httpStatus == 401)
      #expect(error.provider == .twitter)
      #expect(error.message.contains(message))
      #expect(!error.isTransient)
    }

    @Test func plainText401IsClear() async throws {
      let error = try await accessTokenError(
        .status(401, body: "Failed to validate oauth signature and token"))
      #expect(error.code == .providerError)
      #expect(error.httpStatus == 401)
      #expect(error.providerCode == nil)
      #expect(error.message.contains("Failed to validate oauth signature and token"))
      #expect(error.message.contains("HTTP 401"))
    }

    @Test func empty401IsClear() async throws {
      let error = try await accessTokenError(.status(401))
      #expect(error.code == .providerError)
      #expect(error.message.contains("empty body"))
    }

    @Test func xmlErrorIsQuoted() async throws {
      let error = try await accessTokenError(
        .status(
          401,
          body: #"<?xml version="1.0" encoding="UTF-8"?><hash><error>Invalid request token."#
            + "</error><request>/oauth/access_token</request></hash>"))
      #expect(error.message.contains("Invalid request token."))
    }

    @Test func htmlBodyIsNotQuoted() async throws {
      let error = try await accessTokenError(
        .status(403, body: "<html><body>" + String(repeating: "x", count: 500) + "</body></html>"))
      #expect(error.code == .providerError)
      #expect(!error.message.contains("<html>"))
    }

    @Test func serviceUnavailableIsTransientWithRetryAfter() async throws {
      let clock = ManualClock()
      let error = try await accessTokenError(
        .status(503, body: "Service Unavailable", headers: ["Retry-After": "120"]), clock: clock)
      #expect(error.code == .serverUnavailable)
      #expect(error.isTransient)
      #expect(error.httpStatus == 503)
      #expect(error.retryAfter == clock.wallTime.addingTimeInterval(120))
    }

    @Test func rateLimitIsTransientWithCode() async throws {
      let error = try await accessTokenError(
        .json(
          #"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#, status: 429,
          headers: ["Retry-After": "Tue, 14 Nov 2023 22:14:20 GMT"]))
      #expect(error.code == .serverUnavailable)
      #expect(error.providerCode == "88")
      #expect(error.retryAfter == Date(timeIntervalSince1970: 1_700_000_060))
    }

    @Test func requestTokenErrorsToo() async throws {
      let stub = StubTransport()
      stub.on(
        "POST", "/oauth/request_token",
        reply: .json(
          #"{"errors":[{"code":415,"message":"Callback URL not approved for this client application."}]}"#,
          status: 403))
      await #expect {
        try await FlowFixture.client(stub).requestToken(callback: "https://evil.example/cb")
      } throws: { error in
        guard let error = error as? AuthError else { return false }
        return error.code == .providerError && error.providerCode == "415"
      }
    }

    @Test func invalidateTokenAlreadyInvalid() async throws {
      let stub = StubTransport()
      stub.on(
        "POST", "/1.1/oauth/invalidate_token",
        reply: .json(
          #"{"errors": [{"code": 89, "message": "Invalid or expired token."}]}"#, status: 401))
      await #expect {
        try await FlowFixture.client(stub).invalidateToken("at", tokenSecret: Self.tokenSecret)
      } throws: { error in
        guard let error = error as? AuthError else { return false }
        return error.code == .providerError && error.providerCode == "89"
      }
    }

    @Test func invalidateErrorsMaskTheTokenAndSecret() async throws {
      let stub = StubTransport()
      stub.on(
        "POST", "/1.1/oauth/invalidate_token",
        reply: .status(401, body: "no such token at-VALUE-789 / \(Self.tokenSecret.revealed)"))
      do {
        try await FlowFixture.client(stub).invalidateToken(
          "at-VALUE-789", tokenSecret: Self.tokenSecret)
        Issue.record("expected an error")
      } catch let error as AuthError {
        #expect(error.code == .providerError)
        #expect(!error.description.contains("at-VALUE-789"))
        #expect(!error.description.contains(Self.tokenSecret.revealed))
      }
    }

    @Test func foreignTransportErrorsBecomeNetworkErrors() async throws {
      struct Offline: Error {}
      let error = try await accessTokenError(.failure(Offline()))
      #expect(error.code == .network)
      #expect(error.isTransient)
    }

    @Test func transportAuthErrorsPassThrough() async throws {
      let error = try await accessTokenError(.failure(AuthError(.timedOut, "slow")))
      #expect(error.code == .timedOut)
    }

    @Test func cancellationPassesThrough() async throws {
      let stub = StubTransport()
      stub.on("POST", "/oauth/access_token", reply: .failure(CancellationError()))
      await #expect(throws: CancellationError.self) {
        try await FlowFixture.client(stub).accessToken(
          requestToken: "req-token", secret: "s", verifier: "v")
      }
    }

    @Test("secrets never appear in error descriptions, even when the server echoes them")
    func secretsAreNeverEchoed() async throws {
      let consumerSecret = FlowFixture.consumerSecret.revealed
      let echoes: [StubTransport.Reply] = [
        .status(
          401,
          body: "bad verifier \(Self.verifier.revealed) with secret \(Self.tokenSecret.revealed) "
            + "and consumer \(consumerSecret)"),
        .json(
          #"{"errors":[{"code":32,"message":"oauth_verifier=\#(Self.verifier.revealed) "#
            + #"secret \#(Self.tokenSecret.revealed)"}]}"#, status: 401),
        .status(500, body: "<error>\(Self.verifier.revealed) \(consumerSecret)</error>"),
      ]
      for reply in echoes {
        let error = try await accessTokenError(reply)
        for text in [error.description, error.debugDescription, error.message] {
          #expect(!text.contains(Self.verifier.revealed))
          #expect(!text.contains(Self.tokenSecret.revealed))
          #expect(!text.contains(consumerSecret))
        }
      }
    }

    @Test func callbackErrorsDoNotQuoteTheVerifier() throws {
      let client = FlowFixture.client(StubTransport())
      let callback = AuthorizationCallback(parameters: [
        URLQueryItem(name: "oauth_token", value: "wrong"),
        URLQueryItem(name: "oauth_verifier", value: Self.verifier.revealed),
      ])
      do {
        _ = try client.verifier(from: callback, requestToken: "req-token")
        Issue.record("expected a state mismatch")
      } catch {
        #expect(error.code == .stateMismatch)
        #expect(!error.description.contains(Self.verifier.revealed))
        #expect(!error.debugDescription.contains(Self.verifier.revealed))
      }
    }

    @Test func requestTokenDescriptionHidesSecret() {
      let token = OAuth1RequestToken(token: "req", secret: Self.tokenSecret)
      #expect(!token.description.contains(Self.tokenSecret.revealed))
      var dumped = ""
      dump(token, to: &dumped)
      #expect(!dumped.contains(Self.tokenSecret.revealed))
    }
  }
}
