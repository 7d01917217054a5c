// A web service's login in two requests: one handler redirects the user to the provider and
// keeps the login's state in the user's cookie; a later handler (maybe on another instance
// sharing the stores) completes the login only for the browser that carries that cookie.
import Foundation
import SocialLogin
import SocialLoginTesting

// snippet.hide
let clock = ManualClock(wallTime: Date())
let provider = ScriptedProvider(clock: clock)  // stands in for OIDCProvider, X, LINE...
// Stand in for your web framework's cookie jars of two browsers.
var browserCookies: [String: String] = [:]
let attackerCookies: [String: String] = [:]
// snippet.show
let client = try LoginClient(providers: [provider], store: InMemorySessionStore(), clock: clock)

// GET /login → keep the state in this browser's cookie, then 302 to the provider.
let handle = try await client.beginLogin(provider.id, redirectURI: "https://app.example/callback")
// Set-Cookie: login_state=<handle.state>; HttpOnly; Secure; SameSite=Lax; Path=/callback
browserCookies["login_state"] = handle.state
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
// GET /callback?code=…&state=… → only the browser that began the login completes it.
// Someone else's browser (login CSRF: a link to this callback) has no such cookie.
do {
  _ = try await client.completeLogin(
    callback: callback, expectedState: attackerCookies["login_state"] ?? "")
} catch let error as AuthError {
  print("other browser rejected:", error.code)
}
let session = try await client.completeLogin(
  callback: callback, expectedState: browserCookies["login_state"] ?? "")
browserCookies["login_state"] = nil  // Set-Cookie: login_state=; Max-Age=0
print("signed in:", await session.identity?.subject ?? "?", session.currentState)

// A replayed callback is a typed error, never a second session.
do {
  _ = try await client.completeLogin(callback: callback, expectedState: handle.state)
} catch let error as AuthError {
  print("replay rejected:", error.code)
}
