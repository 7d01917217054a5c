// Sign in with X from a terminal, with your own app (see the "Sign in with X" article):
//   export SOCIALLOGIN_TWITTER_CLIENT_ID=...        # OAuth 2.0 Client ID
//   export SOCIALLOGIN_TWITTER_CLIENT_SECRET=...    # only for a confidential client
//   swift run XLogin
import Foundation
import SocialLogin

// A Web App or Automated App is a confidential client and has a secret (HTTP Basic);
// a Native App or Single Page App is a public client: PKCE only, no secret.
let x: XProvider
do {
  x = try ProviderEnvironment().twitter(
    scopes: ["users.read", "tweet.read", "offline.access"])  // offline.access: a refresh token
} catch {
  print(error.message)  // for example "Set SOCIALLOGIN_TWITTER_CLIENT_ID to ..."
  exit(0)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("XLogin")
let client = try LoginClient(providers: [x], store: try FileSessionStore(directory: directory))
_ = try await client.restoreSessions()

// Register exactly http://127.0.0.1:8765/callback as a Callback URI of the app.
let agent = LoopbackUserAgent(port: 8765)
do {
  let session = try await client.login(.twitter, reuse: .ifSignedIn, using: agent)
  print("signed in as @\(await session.identity?.rawClaims["username"]?.stringValue ?? "?")")
} catch let error as AuthError {
  switch error.code {
  case .accessDenied:
    print("You cancelled the authorization on X.")
  case .providerError, .refreshTokenInvalid:
    // invalid_request "Value passed for the authorization code was invalid." (a code older
    // than 30 s, used twice, or a redirect URI that is not the registered one) or
    // unauthorized_client (a confidential client without its secret).
    print("X refused:", error.oauth?.error ?? "?", error.oauth?.errorDescription ?? "")
  default:
    print("login failed:", error.code, error.message)
  }
}
