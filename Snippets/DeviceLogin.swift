// Sign in on a machine without a browser (SSH, a container, a TV) with the device grant:
//   export CORP_ISSUER=https://id.example.com
//   swift run DeviceLogin
import Foundation
import SocialLogin

let environment = ProcessInfo.processInfo.environment
guard let issuer = environment["CORP_ISSUER"].flatMap(URL.init(string:)) else { exit(0) }
let corp = OIDCProvider(id: "corp", configuration: .init(issuer: issuer, clientID: "tv-app"))
let login = try LoginClient(providers: [corp], store: InMemorySessionStore())
let session = try await login.deviceLogin("corp") { prompt in
  // Always show the user code, also next to a link or QR code of the complete URI.
  print("Open \(prompt.verificationURI) and enter \(prompt.userCode)")
  print("The code expires at \(prompt.expiresAt).")
}
print(await session.identity?.name ?? "signed in")

/// How a program tells the three endings apart.
func explain(_ error: AuthError) -> String {
  switch error.code {
  case .accessDenied: "You declined the sign-in."
  case .deviceCodeExpired: "The code expired; start again."
  case .unsupported: "This provider has no device login; use a browser."
  default: error.message
  }
}

/// A service that shows the code on another screen (a kiosk, a TV) and gives up after a while.
func signInOnAnotherScreen(
  _ client: LoginClient, show: @escaping @Sendable (DeviceLoginPrompt) async -> Void
) async throws -> SessionActor {
  let attempt = Task { try await client.deviceLogin("corp") { prompt in await show(prompt) } }
  // Cancelling `attempt` (the user pressed Back) stops polling at once.
  return try await attempt.value
}

/// Facebook Login for Devices: the app id and the client token, never the app secret.
func facebookDeviceClient(clientToken: String) throws -> LoginClient {
  var facebook = try FacebookConfiguration(appID: "1234567890")
  facebook.clientToken = Secret(clientToken)  // App Dashboard > Settings > Advanced
  return try LoginClient(
    providers: [FacebookProvider(configuration: facebook)], store: InMemorySessionStore())
}
