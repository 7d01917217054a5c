// The seed's flow in a Swift service: sign in with Facebook, hand the token to Firebase
// Authentication, watch the Firebase session, refresh it, sign out. It runs against the
// in-process provider emulator, which serves Facebook and Firebase Authentication on one port.
import Foundation
import SocialLogin
import SocialLoginEmulator

// snippet.hide
let browser = URLSessionTransport()
try await ProviderEmulator.run { emulator in
  // snippet.show
  // In production: FacebookProvider(configuration: .init(appID:appSecret:)) and
  // .firebase(apiKey:projectID:) with your project's values, and a browser user agent.
  let facebook = FacebookProvider(
    configuration: try .init(
      appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
      emulatorHost: emulator.host))
  let login = try LoginClient(
    providers: [
      facebook,
      .firebase(
        apiKey: EmulatorApps.firebaseAPIKey, projectID: EmulatorApps.firebaseProjectID,
        emulatorHost: emulator.host, acceptsUnsignedEmulatorTokens: true),  // emulator only
    ],
    store: InMemorySessionStore())
  let firebase = try FirebaseAuth(client: login)

  // The emulator approves at once; a headless agent follows its redirect.
  let agent = HeadlessUserAgent(redirectURI: "http://127.0.0.1:1/callback") { url in
    let answer = try await browser.send(TransportRequest(url: url))
    return URL(string: answer.headers["Location"] ?? "") ?? url
  }
  let facebookSession = try await login.login(.facebook, using: agent)

  // Facebook session -> Firebase session (accounts:signInWithIdp).
  let signedIn = try await firebase.signIn(with: facebookSession)
  print("Firebase user:", signedIn.user.localID, signedIn.user.displayName ?? "-")
  print(
    "new user:", signedIn.user.isNewUser, "providers:", signedIn.user.providerData.map(\.providerID)
  )

  let watcher = Task {
    for await state in signedIn.states { print("state:", state) }
  }
  // A fresh ID token for your backend: valid for at least five minutes, refreshed through
  // Secure Token first when it runs lower. (`idToken(forcingRefresh: true)` always refreshes;
  // asking for more than the hour Firebase grants is an error, not a silent refresh.)
  let idToken = try await signedIn.idToken(minimumTTL: .seconds(300))
  let verified = try await firebase.verifyIDToken(idToken)
  print("verified:", verified.userID, verified.signInProvider ?? "-")

  try await signedIn.session.signOut()
  await watcher.value
  // snippet.hide
}
