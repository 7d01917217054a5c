// A backend that keeps the tokens its mobile app sends, to call the provider for the user
// later: verify the token, build a `Credential` with the expiry the provider confirmed, and
// register it as a session. LINE lets the server refresh a grant the app also holds; X
// rotates refresh tokens, so only one of them may refresh. Runs against the provider
// emulator in-process.
import Foundation
import SocialLogin
import SocialLoginEmulator

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The backend's answer when the app's token is not one to keep.
struct NotKept: Error { var reason: String }

try await ProviderEmulator.run { emulator in
  let line = LINEProvider(
    configuration: try LINEConfiguration(
      channelID: EmulatorApps.lineChannelID,
      channelSecret: Secret(EmulatorApps.lineChannelSecret), emulatorHost: emulator.host))
  let x = XProvider(
    configuration: try XProvider.Configuration(
      clientID: EmulatorApps.twitterClientID,
      clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host))
  let backend = try LoginClient(providers: [line, x], store: InMemorySessionStore())

  // Stand-ins for the provider SDKs in the app: logins against the emulator, whose tokens
  // the app then sends to the backend (over TLS, in a POST body, never in a URL).
  let browser = LoopbackUserAgent { url in _ = try await URLSession.shared.data(from: url) }
  let app = try LoginClient(
    providers: [line, x], store: InMemorySessionStore(),
    policy: RefreshPolicy(proactiveMargin: nil))
  guard let fromLINE = try await app.login(.line, using: browser).credential,
    let fromX = try await app.login(.twitter, using: browser).credential
  else { throw NotKept(reason: "the stand-in app has no tokens") }

  // POST /session/line {"access_token", "refresh_token"}
  // 1. Verify: whose token, issued to this channel, and until when (LINE's verify endpoint
  //    answers `expires_in`; Facebook's debug_token `expires_at`; an ID token has `exp`).
  let lineVerified = try await backend.verify(.accessToken(fromLINE.accessToken), from: .line)
  guard lineVerified.audience.isProven else { throw NotKept(reason: "another app's token") }
  // 2. The credential: the expiry the provider confirmed, not one the app claims.
  let lineCredential = Credential(
    accessToken: fromLINE.accessToken, refreshToken: fromLINE.refreshToken,
    expiresAt: lineVerified.expiresAt)
  // 3. Register: stored, live, and refreshed by the server from now on. A LINE refresh
  //    token stays usable after a refresh (unlike X's), so the app's copy keeps working.
  let lineSession = try await backend.register(
    credential: lineCredential, identity: lineVerified.identity)
  print("LINE session:", lineSession.key, "expires", lineVerified.expiresAt ?? .distantFuture)

  // POST /session/x {"access_token", "expires_in"}: X rotates refresh tokens (each refresh
  // kills the one spent), so the app and the server must not both hold one. Here the app
  // keeps refreshing and sends each new access token; the server keeps no refresh token.
  // X cannot prove which app a token was issued to: accept it only from your own app.
  let xVerified = try await backend.verify(.accessToken(fromX.accessToken), from: .twitter)
  // X's /2/users/me says nothing about expiry: take the app's word, capped at the two hours
  // X documents for its access tokens.
  let claimed = fromX.expiresAt ?? .distantFuture
  let xCredential = Credential(
    accessToken: fromX.accessToken,
    expiresAt: min(claimed, Date().addingTimeInterval(2 * 3600)))
  let xSession = try await backend.register(credential: xCredential, identity: xVerified.identity)
  // Without a refresh token the session ends when the token expires (`accessTokenExpired`);
  // the app's next POST /session/x with its new token registers it again.
  print("X session:", xSession.key, "refreshable:", xCredential.refreshToken != nil)
}
