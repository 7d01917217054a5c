// Sign in with Google from a terminal, with your own client (see "Sign in with Google"):
//   export GOOGLE_CLIENT_SECRET=...
//   swift run GoogleLogin
import Foundation
import SocialLogin

let environment = ProcessInfo.processInfo.environment
guard let secret = environment["GOOGLE_CLIENT_SECRET"] else { exit(0) }
let google = try GoogleProvider.google(
  clientID: "1234-web.apps.googleusercontent.com", clientSecret: Secret(secret))
let login = try LoginClient(providers: [google], store: InMemorySessionStore())
let session = try await login.login(.google)
let identity = await session.identity
print(identity?.email ?? "-", identity?.emailVerified ?? false)

/// A client for users needed once: no refresh token.
func onlineOnly(webClientID: String, secret: Secret) throws -> GoogleProvider {
  var configuration = try GoogleConfiguration(clientID: webClientID, clientSecret: secret)
  configuration.offlineAccess = false
  let provider: GoogleProvider = .google(configuration)
  return provider
}

/// Admits only accounts of one Workspace domain.
func workspaceOnly(_ configuration: inout GoogleConfiguration) {
  configuration.hostedDomains = ["example.com"]
}

/// A backend verifying the ID token an Android or iOS app sent.
func verifyAppToken(_ idToken: String, store: any SessionStore, nonces: NonceIssuer)
  async throws -> VerifiedIdentity
{
  let google = try GoogleProvider.google(
    clientID: "1234-web.apps.googleusercontent.com", clientSecret: nil,
    appClientIDs: [
      "1234-android.apps.googleusercontent.com", "1234-ios.apps.googleusercontent.com",
    ])
  let login = try LoginClient(providers: [google], store: store)
  let verified = try await login.verify(idToken: Secret(idToken), from: .google, nonces: nonces)
  return verified
}
