// A web service's login in two requests: one handler redirects the user to the provider, a later
// handler (maybe on another instance sharing the stores) completes the login from the callback.
import Foundation
import SocialLogin
import SocialLoginTesting

// snippet.hide
let clock = ManualClock(wallTime: Date())
let provider = ScriptedProvider(clock: clock)  // stands in for OIDCProvider, X, LINE...
// snippet.show
let client = try LoginClient(providers: [provider], store: InMemorySessionStore(), clock: clock)

// GET /login → 302 to the provider.
let handle = try await client.beginLogin(provider.id, redirectURI: "https://app.example/callback")
print("redirect the browser to:", handle.url.host ?? "")

// snippet.hide
// The provider sends the browser back with the same state (here we fake that redirect).
let state =
  URLComponents(url: handle.url, resolvingAgainstBaseURL: false)?.queryItems?
  .first { $0.name == "state" }?.value ?? ""
let callback = AuthorizationCallback(parameters: [
  URLQueryItem(name: "code", value: "abc"), URLQueryItem(name: "state", value: state),
])
// snippet.show
// GET /callback?code=…&state=… → a signed-in, persisted session.
let session = try await client.completeLogin(callback: callback)
print("signed in:", await session.identity?.subject ?? "?", session.currentState)

// A forged or replayed callback is a typed error, never a second session.
do {
  _ = try await client.completeLogin(callback: callback)
} catch let error as AuthError {
  print("replay rejected:", error.code)
}
