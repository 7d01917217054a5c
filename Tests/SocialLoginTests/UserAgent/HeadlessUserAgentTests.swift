import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HeadlessUserAgentTests {
  let redirectURI = "https://app.example/oauth/callback"
  let authorizationURL = URL(string: "https://provider.invalid/authorize?state=s")

  func authorize(landingOn landed: String) async throws -> AuthorizationCallback {
    let agent = HeadlessUserAgent(redirectURI: redirectURI) { _ in
      try #require(URL(string: landed))
    }
    let session = try await agent.start()
    #expect(session.redirectURI == redirectURI)
    return try await session.authorize(try #require(authorizationURL))
  }

  @Test func parsesTheQueryOfTheFinalRedirect() async throws {
    let callback = try await authorize(landingOn: redirectURI + "?code=a%2Bb&state=s")
    #expect(try callback.value("code") == "a+b")
    #expect(try callback.value("state") == "s")
  }

  @Test func parsesTheFragmentWhenThereIsNoQuery() async throws {
    let callback = try await authorize(landingOn: redirectURI + "#access_token=t&state=s")
    #expect(try callback.value("access_token") == "t")
    #expect(try callback.value("state") == "s")
  }

  @Test func rejectsALandingPageThatIsNotTheRedirectURI() async throws {
    for landed in [
      "https://evil.example/oauth/callback?code=a&state=s",
      "https://app.example/elsewhere?code=a&state=s",
      "http://app.example/oauth/callback?code=a&state=s",
      "https://app.example:8443/oauth/callback?code=a&state=s",
    ] {
      let error = await #expect(throws: AuthError.self) {
        _ = try await authorize(landingOn: landed)
      }
      #expect(error?.code == .invalidCallback, "\(landed)")
    }
  }

  @Test func errorRedirectsThrowTypedErrors() async throws {
    let denied = await #expect(throws: AuthError.self) {
      _ = try await authorize(landingOn: redirectURI + "?error=access_denied&state=s")
    }
    #expect(denied?.code == .accessDenied)
    let other = await #expect(throws: AuthError.self) {
      _ = try await authorize(
        landingOn: redirectURI + "?error=server_error&error_description=down&state=s")
    }
    #expect(other?.code == .providerError)
    #expect(
      other?.oauth == AuthError.OAuthErrorFields(error: "server_error", errorDescription: "down"))
  }

  @Test func cancelStopsTheBrowser() async throws {
    let clock = ManualClock()
    let entered = Gate()
    let agent = HeadlessUserAgent(redirectURI: redirectURI) { url in
      entered.open()
      try await clock.sleep(until: clock.now.advanced(by: .seconds(3600)), tolerance: nil)
      return url
    }
    let session = try await agent.start()
    let url = try #require(authorizationURL)
    let waiting = Task { try await session.authorize(url) }
    await entered.wait()
    session.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    // A session is single use.
    await #expect(throws: AuthError.self) { try await session.authorize(url) }
  }
}
