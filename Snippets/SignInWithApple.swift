// Sign in with Apple end to end, against the in-process emulator (see the "Sign in with
// Apple" article): the configuration, the code an iOS app sends, the web login's POSTed
// callback, a server-to-server notification, and account deletion.
//   swift run SignInWithApple
import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginEmulator

try await ProviderEmulator.run { emulator in
  // Your Services ID first (web), then your bundle ids (apps); the team id, the key id and
  // the .p8 from Certificates, Identifiers & Profiles → Keys. The emulator hands out its own.
  let key = emulator.appleKey
  let configuration = try AppleConfiguration(
    clientIDs: key.clientIDs, teamID: key.teamID, keyID: key.keyID,
    privateKeyPEM: Secret(key.privateKeyPEM), emulatorHost: emulator.host)
  let store = InMemorySessionStore()
  let login = try LoginClient(providers: [.apple(configuration)], store: store)

  // An iOS app sent its authorizationCode and identityToken; it set the request's nonce to
  // the SHA-256 hex of a raw nonce your server gave it.
  let rawNonce = "raw-nonce-from-your-server"
  let app = try emulator.appleAuthorization(nonce: SHA256Hex.of(rawNonce))
  let session = try await login.signInWithApple(
    authorizationCode: Secret(app.authorizationCode), identityToken: Secret(app.identityToken),
    nonce: Secret(rawNonce))
  let identity = await session.identity
  print("signed in:", identity?.subject ?? "?", identity?.email ?? "no email")

  // The web login: Apple POSTs code, state, id_token (and, the first time, user) to your
  // https return URL. Read the form body and complete the login with the state of the cookie.
  let handle = try await login.beginLogin(.apple, redirectURI: "https://example.com/apple")
  let posted = try await emulator.approve(handle.url)  // the emulator plays the browser
  let body = URLComponents(url: posted, resolvingAgainstBaseURL: false)?.percentEncodedQuery
  let web = try await login.completeLogin(
    callback: AuthorizationCallback(formBody: body ?? ""), expectedState: handle.state)
  print("web login:", await web.identity?.name ?? "no name")

  // Apple posts {"payload": JWT} to your notification endpoint; verify it and act on it,
  // once: its id is kept in a nonce store (the Redis one on many replicas) until it expires.
  let seen = InMemoryNonceStore()
  let event = try await login.handleAppleNotification(
    body: try emulator.appleNotification(type: "email-disabled"), seen: seen)
  print("notification:", event.kind, event.subject)

  // The user deletes their account in your app: revoke Apple's tokens, then delete your data.
  try await login.deleteAccount(session.key)
  print("after deletion:", session.currentState)
}

/// SHA-256 in lower-case hex, as apps put a raw nonce in the request.
enum SHA256Hex {
  static func of(_ text: String) -> String {
    SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
  }
}
