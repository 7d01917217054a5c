// A first login, with no account and no network: the provider emulator runs in this process,
// the real XProvider signs in against it over HTTP, and the session refreshes and signs out.
import Foundation
import SocialLogin
import SocialLoginEmulator

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

try await ProviderEmulator.run { emulator in
  // The emulator's default X app. With a real app, these come from X's developer console.
  let x = XProvider(
    configuration: try XProvider.Configuration(
      clientID: EmulatorApps.twitterClientID,
      clientSecret: Secret(EmulatorApps.twitterClientSecret),
      emulatorHost: emulator.host))
  let client = try LoginClient(providers: [x], store: InMemorySessionStore())

  // The "browser" is a plain GET: the emulator approves at once and redirects (302) to
  // http://127.0.0.1:<port>/callback, where the loopback agent is listening.
  let agent = LoopbackUserAgent { url in _ = try await URLSession.shared.data(from: url) }
  let session = try await client.login(.twitter, using: agent)
  print("signed in as", await session.identity?.name ?? "?", "-", session.currentState)

  let token = try await session.freshAccessToken()  // valid for two hours; refreshed when not
  print("access token:", token.count, "characters (never print a token itself)")

  try await session.signOut()  // revokes the tokens at X, then forgets the session
  print("after sign-out:", session.currentState)
}
