import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Linking across processes: one account with LINE, Facebook and Firebase identities (real
/// logins through the provider emulator, stored in Redis), held live by four OS processes
/// (`sociallogin-bench replicas-follower`) and by this one. One process signs the account out
/// in one call; every process sees each of the three sessions end with the reason, within the
/// sign-out propagation bound of <doc:ManyReplicas> (100 ms), and another account's session
/// stays signed in.
@Suite(.redisAvailable, .serialized, .timeLimit(.minutes(3)))
struct AccountSignOutProcessTests {
  static let propagationBound: Int64 = 100_000

  /// Signs Alice in with LINE and Facebook, and into Firebase with the Facebook session, on a
  /// client of `store`; returns the client and the three keys.
  func signIn(_ emulator: ProviderEmulator, store: RedisSessionStore) async throws
    -> (LoginClient, [SessionKey])
  {
    let host = emulator.host
    let facebook = FacebookProvider(
      configuration: try .init(
        appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
        emulatorHost: host, environment: [:]))
    let line = LINEProvider(
      configuration: try .init(
        channelID: EmulatorApps.lineChannelID,
        channelSecret: Secret(EmulatorApps.lineChannelSecret), emulatorHost: host,
        environment: [:]))
    let client = try LoginClient(
      providers: [
        facebook, line,
        .firebase(
          apiKey: EmulatorApps.firebaseAPIKey, projectID: EmulatorApps.firebaseProjectID,
          emulatorHost: host),
      ],
      store: store, policy: RefreshPolicy(proactiveMargin: nil))
    let lineSession = try await client.login(.line, using: emulator.headlessAgent())
    let facebookSession = try await client.login(.facebook, using: emulator.headlessAgent())
    let firebase = try await FirebaseAuth(client: client).signIn(with: facebookSession)
    return (client, [lineSession.key, facebookSession.key, firebase.session.key])
  }

  @Test func anAccountWithThreeProvidersIsSignedOutOnFourProcessesInOneCall() async throws {
    try await RedisFixture.with { server in
      try await ProviderEmulator.run { emulator in
        let prefix = uniquePrefix()
        let store = try server.store(.init(keyPrefix: prefix))
        defer { store.client.close() }
        let (client, keys) = try await signIn(emulator, store: store)
        #expect(Set(keys.map(\.provider)) == [.line, .facebook, .firebase])
        let account = try AccountID("alice-account")
        for key in keys { try await client.link(key, to: account) }
        // Bob's X session, linked to his own account, must survive.
        let bob = SessionKey(provider: .twitter, subject: "bob")
        _ = try await store.save(
          StoredSession(
            key: bob,
            credential: Credential(
              accessToken: "at-bob", refreshToken: "rt-bob",
              expiresAt: Date().addingTimeInterval(3600)),
            signedInAt: Date()),
          expectedVersion: nil)
        try await client.link(bob, to: try AccountID("bob-account"))

        let workers = try (0..<4).map { _ in
          try WorkerProcess(
            command: "replicas-follower", arguments: ["--redis", server.url, "--prefix", prefix])
        }
        for worker in workers { _ = try await worker.waitForLine("ready") }
        let here = keys.compactMap { client.session(for: $0) }
        #expect(here.count == 3)

        workers[0].send("signout-account alice-account accountDisabled")
        let started = try await workers[0].waitForLine("signing-out-account alice-account ")
        let start = try #require(Int64(started.split(separator: " ")[2]))
        let done = try await workers[0].waitForLine("signed-out-account alice-account ")
        #expect(done.hasSuffix(" 3"), "three sessions ended: \(done)")
        var delays: [Int64] = []
        for worker in workers {
          for key in keys {
            let ended = try await worker.waitForLine("ended-key \(key) ", timeout: .seconds(30))
            let fields = ended.split(separator: " ").map(String.init)
            try #require(fields.count == 5)
            #expect(fields[2] == "accountDisabled", "the reason, on every process: \(ended)")
            #expect(fields[4] == "accountDisabled", "freshAccessToken() throws it: \(ended)")
            delays.append(try #require(Int64(fields[3])) - start)
          }
        }
        for delay in delays {
          #expect(delay <= Self.propagationBound, "propagation took \(delay) µs")
        }
        print("account sign-out propagation µs: \(delays.sorted())")
        for session in here {
          try await WaitTimeout.yieldUntil("\(session.key) ends here", timeout: .seconds(10)) {
            session.currentState == .signedOut(.accountDisabled)
          }
        }
        for key in keys { #expect(try await store.load(key) == nil, "\(key) deleted") }
        #expect(try await store.load(bob) != nil, "another account's session stays")
        for worker in workers {
          #expect(!worker.hasLine("ended-key \(bob) "), "Bob was not signed out anywhere")
        }
        #expect(try await client.sessionKeys(of: account) == keys.sorted(), "the links stay")
        for worker in workers { worker.send("exit") }
      }
    }
  }
}
