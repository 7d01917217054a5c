// Sign in with Facebook from a terminal, with your own app (see the "Facebook Login" article):
//   export SOCIALLOGIN_FACEBOOK_CLIENT_ID=...       # App ID
//   export SOCIALLOGIN_FACEBOOK_CLIENT_SECRET=...   # App secret
//   swift run FacebookLogin
import Foundation
import SocialLogin

let environment = ProcessInfo.processInfo.environment
guard let appID = environment["SOCIALLOGIN_FACEBOOK_CLIENT_ID"], !appID.isEmpty,
  let appSecret = environment["SOCIALLOGIN_FACEBOOK_CLIENT_SECRET"], !appSecret.isEmpty
else {
  print("Set SOCIALLOGIN_FACEBOOK_CLIENT_ID and _CLIENT_SECRET to your app's App ID and secret.")
  exit(0)
}
var configuration = try FacebookConfiguration(
  appID: appID, appSecret: Secret(appSecret), scopes: ["public_profile", "email"])
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
