// Sign in with LINE from a terminal, with your own channel (see the "LINE Login" article):
//   export SOCIALLOGIN_LINE_CLIENT_ID=...       # Channel ID
//   export SOCIALLOGIN_LINE_CLIENT_SECRET=...   # Channel secret
//   swift run LINELogin
import Foundation
import SocialLogin

// The variables above, read in one place; a missing one is an error that names it.
let line: LINEProvider
do {
  // "email" needs "openid" and the email permission applied for in the console.
  line = try ProviderEnvironment().line(scopes: ["profile", "openid", "email"])
} catch {
  print(error.message)  // for example "Set SOCIALLOGIN_LINE_CLIENT_ID to ..."
  exit(0)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("LINELogin")
let client = try LoginClient(providers: [line], store: try FileSessionStore(directory: directory))

// The channel's Callback URL must be exactly http://127.0.0.1:8765/callback.
let agent = LoopbackUserAgent(port: 8765)
do {
  let session = try await client.login(.line, using: agent)
  let identity = await session.identity
  print("signed in as", identity?.name ?? "?", identity?.email ?? "(no email permission)")
} catch let error as AuthError {
  switch error.code {
  case .accessDenied:
    print("You cancelled the LINE consent screen.")
  case .providerError:
    // LINE's own codes, upper case on callbacks: INVALID_REQUEST, ...
    print("LINE refused:", error.oauth?.error ?? error.providerCode ?? "?", error.message)
  default:
    print("login failed:", error.code, error.message)
  }
}
