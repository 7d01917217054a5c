// Several replicas of a service sharing sessions through Redis: one refresh on the wire however
// many replicas and callers need a fresh token. Needs a Redis server:
//   SOCIALLOGIN_REDIS_URL=redis://127.0.0.1:6379/15 swift run Replicas
import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginRedis
import SocialLoginTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

guard let url = ProcessInfo.processInfo.environment["SOCIALLOGIN_REDIS_URL"] else {
  print("Set SOCIALLOGIN_REDIS_URL (for example redis://127.0.0.1:6379/15) to run this.")
  exit(0)
}
let clock = ManualClock(wallTime: Date())  // today: Redis expires pending logins in real time
try await ProviderEmulator.run(clock: clock) { emulator in
  let x = XProvider(
    configuration: try XProvider.Configuration(
      clientID: EmulatorApps.twitterClientID,
      clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host),
    clock: clock)

  // Every replica seals records with the same key ring: Redis never sees a token in clear.
  // In production: SealingKeyRing.load(contentsOf: "/run/secrets/sociallogin-sealing.keys").
  let keys = try SealingKeyRing(sealingKey: SealingKey.generate())

  // What every replica does at start: the same Redis, the same key prefix, the same keys.
  func makeReplica() async throws -> LoginClient {
    let options = RedisSessionStore.Options(
      keyPrefix: "myservice", leaseTimeToLive: .seconds(10),
      refreshTokenLifetimes: [.line: .seconds(90 * 24 * 3600)])  // X documents none
    let store = try await RedisSessionStore.connect(
      url: url, sealing: .keyRing(keys), options: options)
    let pending = store.pendingLogins()
    let client = try LoginClient(
      providers: [x], store: store, clock: clock, pendingLogins: pending)
    _ = try await client.restoreSessions()
    return client
  }

  // Both replicas run before the user signs in, on the first one.
  let first = try await makeReplica()
  let second = try await makeReplica()
  let agent = LoopbackUserAgent(clock: clock) { url in
    _ = try await URLSession.shared.data(from: url)
  }
  let signedIn = try await first.login(.twitter, using: agent)
  // The second replica loads the session from Redis on its first request for it.
  guard let sibling = try await second.loadSession(signedIn.key) else { return }
  let sessions = [signedIn, sibling]

  // Two hours later X's access token has expired, and X refresh tokens are single use.
  emulator.clearRequests()
  clock.advance(by: .seconds(2 * 3600 + 60))
  try await withThrowingTaskGroup(of: String.self) { group in
    for session in sessions {
      for _ in 0..<50 { group.addTask { try await session.freshAccessToken() } }
    }
    for try await _ in group {}
  }
  let refreshes = emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token")
  print("refreshes that reached X:", refreshes.count)  // 1: the other replica adopted it
}
