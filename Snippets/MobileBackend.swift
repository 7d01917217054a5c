// The backend of an iOS app whose users sign in with LINE and Facebook: it hands the app a
// nonce, verifies the tokens the app sends back (issued to *this* app, nonce used once), and
// signs the users in to Firebase. Runs against the provider emulator in-process; in
// production the same code reads your own variables (`ProviderEnvironment()`).
import Foundation
import SocialLogin
import SocialLoginEmulator

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

try await ProviderEmulator.run { emulator in
  // Configuration: the variables the CLI reads. Here, the emulator's public test apps.
  let environment = ProviderEnvironment([
    "SOCIALLOGIN_EMULATOR_HOST": emulator.host.description,
    "SOCIALLOGIN_FACEBOOK_CLIENT_ID": EmulatorApps.facebookAppID,
    "SOCIALLOGIN_FACEBOOK_CLIENT_SECRET": EmulatorApps.facebookAppSecret,
    "SOCIALLOGIN_LINE_CLIENT_ID": EmulatorApps.lineChannelID,
    "SOCIALLOGIN_LINE_CLIENT_SECRET": EmulatorApps.lineChannelSecret,
    "FIREBASE_API_KEY": EmulatorApps.firebaseAPIKey,
    "FIREBASE_PROJECT_ID": EmulatorApps.firebaseProjectID,
  ])
  let backend = try LoginClient(
    providers: [
      try environment.facebook(), try environment.line(),
      try environment.firebase(acceptsUnsignedEmulatorTokens: true),  // the emulator's tokens
    ],
    store: InMemorySessionStore())
  // At start-up: a wrong secret stops the deployment here, not at the first user's 401.
  _ = try await backend.validateConfiguration()
  let firebase = try FirebaseAuth(client: backend)
  let nonces = NonceIssuer(store: InMemoryNonceStore())  // RedisSessionStore.nonces() for replicas

  // GET /nonce: the app passes it to the LINE SDK's login.
  let nonce = try await nonces.issue()
  // (The emulator mints the ID token the LINE SDK hands the app.)
  let lineIDToken = Secret(try emulator.lineIDToken(nonce: nonce.revealed))
  // POST /session/line: whose token, issued to this channel, with a nonce we issued, once.
  let line = try await backend.verify(idToken: lineIDToken, from: .line, nonces: nonces)
  print("LINE user", line.identity.subject, line.identity.name ?? "")

  // (A stand-in for the access token the Facebook SDK hands the app.)
  let browser = LoopbackUserAgent { url in _ = try await URLSession.shared.data(from: url) }
  let facebookToken = Secret(
    try await backend.login(.facebook, using: browser).freshAccessToken())
  // POST /session/facebook: verified for this app, then a Firebase user for it.
  let facebook = try await backend.verify(.accessToken(facebookToken), from: .facebook)
  guard facebook.audience.isProven else {
    print("refused: the token was issued to another app")
    return
  }
  let signedIn = try await firebase.signIn(with: .facebook(accessToken: facebookToken))
  print("Firebase user", signedIn.user.localID, "new:", signedIn.user.isNewUser)
  let idToken = try await signedIn.idToken()  // what the app's API calls carry
  print("Firebase ID token verifies:", try await firebase.verifyIDToken(idToken).userID)
}
