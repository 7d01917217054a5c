// Testing your own code against the provider emulator: a ManualClock drives token expiry,
// faults make the provider misbehave, and the transcript shows what reached the wire.
import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The same clock for the emulator and the client: tokens expire when the test says so.
let clock = ManualClock()
try await ProviderEmulator.run(clock: clock) { emulator in
  let line = LINEProvider(
    configuration: try LINEConfiguration(
      channelID: EmulatorApps.lineChannelID,
      channelSecret: Secret(EmulatorApps.lineChannelSecret),
      emulatorHost: emulator.host),
    clock: clock)
  let client = try LoginClient(providers: [line], store: InMemorySessionStore(), clock: clock)
  let agent = LoopbackUserAgent(clock: clock) { url in
    _ = try await URLSession.shared.data(from: url)
  }
  let session = try await client.login(.line, using: agent)

  // Thirty days later the access token has expired: 100 callers, one refresh on the wire.
  emulator.clearRequests()
  clock.advance(by: .seconds(31 * 24 * 3600))
  try await withThrowingTaskGroup(of: String.self) { group in
    for _ in 0..<100 { group.addTask { try await session.freshAccessToken() } }
    for try await _ in group {}
  }
  let refreshes = emulator.requests(to: .line, endpoint: "token", grantType: "refresh_token")
  print("refresh requests:", refreshes.count)  // 1

  // LINE is down for the next refresh: the session degrades and keeps its tokens.
  emulator.inject(EmulatorFault(provider: .line, endpoint: "token", status: 503, count: 1))
  clock.advance(by: .seconds(31 * 24 * 3600))
  do {
    _ = try await session.freshAccessToken()
  } catch let error as AuthError where error.isTransient {
    print("transient:", error.code, "-", session.currentState)  // .degraded(retryAt:)
  }

  // The user removes the app at LINE: the refresh token is dead, the session signs out.
  emulator.revokeTokens(provider: .line)
  clock.advance(by: .seconds(3600))
  do {
    _ = try await session.freshAccessToken()
  } catch let error as AuthError where error.code == .signedOut {
    print("signed out:", error.signOutReason.map(String.init(describing:)) ?? "?")
  }
}
