// Sign in with Facebook from a terminal, with your own app (see the "Facebook Login" article):
//   export SOCIALLOGIN_FACEBOOK_CLIENT_ID=...       # App ID
//   export SOCIALLOGIN_FACEBOOK_CLIENT_SECRET=...   # App secret
//   swift run FacebookLogin
import Foundation
import SocialLogin

var configuration: FacebookConfiguration
do {
  configuration = try ProviderEnvironment().facebookConfiguration(
    scopes: ["public_profile", "email"])
} catch {
  print(error.message)  // for example "Set SOCIALLOGIN_FACEBOOK_CLIENT_ID to ..."
  exit(0)
}
configuration.exchangesForLongLivedToken = true  // a ~60-day token instead of a short one
configuration.renewal = .reexchange  // exchange it again before it lapses
let facebook = FacebookProvider(configuration: configuration)

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("FacebookLogin")
let client = try LoginClient(
  providers: [facebook], store: try FileSessionStore(directory: directory))

// Valid OAuth Redirect URIs must list exactly http://127.0.0.1:8765/callback (Facebook takes
// http redirects only for local development, while the app is in development mode).
let agent = LoopbackUserAgent(port: 8765)
do {
  let session = try await client.login(.facebook, using: agent)
  print("signed in as", await session.identity?.name ?? "?")
} catch let error as AuthError {
  switch error.code {
  case .accessDenied:
    print("You cancelled the Facebook dialog (error_reason=user_denied).")
  case .invalidToken:
    // Graph code 190: the token is no longer valid, with the subcode's reason.
    print("Facebook rejected the token:", error.signOutReason.map { "\($0)" } ?? "?")
  default:
    print("login failed:", error.code, error.providerCode ?? "", error.message)
  }
}
