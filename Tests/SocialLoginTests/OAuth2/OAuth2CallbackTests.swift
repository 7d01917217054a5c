import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct OAuth2CallbackTests {
  static func callback(_ items: [(String, String)]) -> AuthorizationCallback {
    AuthorizationCallback(parameters: items.map { URLQueryItem(name: $0.0, value: $0.1) })
  }

  static func validationError(
    _ fixture: OAuth2Fixture, _ callback: AuthorizationCallback, pending: PendingLogin
  ) -> AuthError? {
    do {
      let code = try fixture.client.validateCallback(callback, pending: pending)
      Issue.record("accepted the callback, code \(code)")
      return nil
    } catch {
      return error
    }
  }

  @Test func acceptsMatchingStateAndReturnsTheCode() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    let url = try #require(
      URL(string: "http://127.0.0.1:8765/callback?code=the-code&state=\(pending.state.revealed)"))
    let code = try fixture.client.validateCallback(
      AuthorizationCallback(url: url), pending: pending)
    #expect(code == "the-code")
    // Pure: validating again gives the same answer (single use is the store's job).
    #expect(
      try fixture.client.validateCallback(AuthorizationCallback(url: url), pending: pending)
        == "the-code")
  }

  @Test func providerErrorWithDescriptionAndURI() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    let error = try #require(
      Self.validationError(
        fixture,
        Self.callback([
          ("error", "invalid_scope"), ("error_description", "Scope 'x' is unknown"),
          ("error_uri", "https://auth.test/help"), ("state", pending.state.revealed),
        ]), pending: pending))
    #expect(error.code == .providerError)
    #expect(error.provider == "test-idp")
    #expect(
      error.oauth
        == AuthError.OAuthErrorFields(
          error: "invalid_scope", errorDescription: "Scope 'x' is unknown",
          errorURI: "https://auth.test/help"))
  }

  @Test func accessDeniedIsItsOwnCode() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    let error = try #require(
      Self.validationError(
        fixture,
        Self.callback([
          ("error_reason", "user_denied"), ("error", "access_denied"),
          ("error_description", "Permissions error"), ("state", pending.state.revealed),
        ]), pending: pending))
    #expect(error.code == .accessDenied)
    #expect(error.oauth?.error == "access_denied")
  }

  @Test func lineUpperCaseErrorCodeIsKeptRaw() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    let error = try #require(
      Self.validationError(
        fixture,
        Self.callback([
          ("error", "INVALID_REQUEST"), ("error_description", "'scope' is not specified"),
          ("state", pending.state.revealed),
        ]), pending: pending))
    #expect(error.code == .providerError)
    #expect(error.oauth?.error == "INVALID_REQUEST")
    #expect(error.oauth?.errorDescription == "'scope' is not specified")

    let denied = try #require(
      Self.validationError(
        fixture, Self.callback([("error", "ACCESS_DENIED"), ("state", pending.state.revealed)]),
        pending: pending))
    #expect(denied.code == .accessDenied)
    #expect(denied.oauth?.error == "ACCESS_DENIED")
  }

  @Test func missingStateIsAStateMismatch() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    let error = Self.validationError(fixture, Self.callback([("code", "c")]), pending: pending)
    #expect(error?.code == .stateMismatch)
    let empty = Self.validationError(
      fixture, Self.callback([("code", "c"), ("state", "")]), pending: pending)
    #expect(empty?.code == .stateMismatch)
  }

  @Test func wrongStateIsAStateMismatchAndNeverQuotesEitherState() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    let other = try fixture.pending()
    let error = Self.validationError(
      fixture, Self.callback([("code", "c"), ("state", other.state.revealed)]), pending: pending)
    #expect(error?.code == .stateMismatch)
    expectNoSecrets(error, [pending.state.revealed, other.state.revealed])
    // A prefix of the real state is not enough either.
    let prefix = Self.validationError(
      fixture,
      Self.callback([("code", "c"), ("state", String(pending.state.revealed.dropLast()))]),
      pending: pending)
    #expect(prefix?.code == .stateMismatch)
  }

  @Test func forgedErrorCallbackWithoutStateIsAStateMismatch() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    let error = Self.validationError(
      fixture, Self.callback([("error", "access_denied")]), pending: pending)
    #expect(error?.code == .stateMismatch)
    #expect(error?.oauth?.error == "access_denied")
  }

  @Test(arguments: ["code", "state", "error", "iss"])
  func duplicateParametersAreRejected(name: String) throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    var items = [("code", "c1"), ("state", pending.state.revealed)]
    if !items.contains(where: { $0.0 == name }) { items.append((name, "first")) }
    items.append((name, name == "state" ? pending.state.revealed : "again"))
    let error = Self.validationError(fixture, Self.callback(items), pending: pending)
    #expect(error?.code == .invalidCallback)
    #expect(error?.message.contains("'\(name)'") == true)
  }

  @Test func issuerMismatchIsRejected() throws {
    let fixture = try OAuth2Fixture { $0.expectedIssuer = "https://auth.test" }
    let pending = try fixture.pending()
    let state = pending.state.revealed
    let good = Self.callback([("code", "c"), ("state", state), ("iss", "https://auth.test")])
    #expect(try fixture.client.validateCallback(good, pending: pending) == "c")
    // Absent is fine unless the server is known to always send it.
    #expect(
      try fixture.client.validateCallback(
        Self.callback([("code", "c"), ("state", state)]), pending: pending) == "c")
    let mixUp = Self.validationError(
      fixture, Self.callback([("code", "c"), ("state", state), ("iss", "https://evil.test")]),
      pending: pending)
    #expect(mixUp?.code == .invalidCallback)
    // Exact comparison: no trailing-slash normalisation.
    let slash = Self.validationError(
      fixture, Self.callback([("code", "c"), ("state", state), ("iss", "https://auth.test/")]),
      pending: pending)
    #expect(slash?.code == .invalidCallback)
  }

  @Test func issuerRequiredWhenTheServerAlwaysSendsIt() throws {
    let fixture = try OAuth2Fixture {
      $0.expectedIssuer = "https://auth.test"
      $0.requiresIssuerInCallback = true
    }
    let pending = try fixture.pending()
    let error = Self.validationError(
      fixture, Self.callback([("code", "c"), ("state", pending.state.revealed)]), pending: pending)
    #expect(error?.code == .invalidCallback)
    #expect(error?.message.contains("iss") == true)
  }

  @Test func expiredPendingLoginIsRejected() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    let callback = Self.callback([("code", "c"), ("state", pending.state.revealed)])
    fixture.clock.advance(by: .seconds(600))
    #expect(try fixture.client.validateCallback(callback, pending: pending) == "c")
    fixture.clock.advance(by: .seconds(1))
    let error = Self.validationError(fixture, callback, pending: pending)
    #expect(error?.code == .invalidCallback)
  }

  @Test func missingCodeIsAnInvalidCallback() throws {
    let fixture = try OAuth2Fixture()
    let pending = try fixture.pending()
    for items in [
      [("state", pending.state.revealed)], [("state", pending.state.revealed), ("code", "")],
    ] {
      let error = Self.validationError(fixture, Self.callback(items), pending: pending)
      #expect(error?.code == .invalidCallback)
    }
  }

  @Test func pendingLoginOfAnotherProviderIsRejected() throws {
    let fixture = try OAuth2Fixture()
    var pending = try fixture.pending()
    pending.provider = .line
    let error = Self.validationError(
      fixture, Self.callback([("code", "c"), ("state", pending.state.revealed)]), pending: pending)
    #expect(error?.code == .invalidCallback)
  }
}
