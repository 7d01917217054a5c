import Foundation
import GlewlwydTestPeer
import SocialLogin
import SocialLoginTesting
import Synchronization
import Testing

/// A device login (RFC 8628) against a real, independent OpenID provider: Glewlwyd 2.7's OIDC
/// plugin with the device grant enabled for a public client. The person with the phone is
/// `GlewlwydBrowser.approveDevice`, who approves before the first poll: Glewlwyd answers
/// `slow_down` to polls closer than its interval in real time, which a manual clock does not
/// pass.
extension GlewlwydSuites {
  @Suite(
    .enabled(
      if: GlewlwydPeer.shouldRun,
      "glewlwyd is not installed: apt-get install glewlwyd (CI=true fails instead)"),
    .timeLimit(.minutes(10)))
  struct GlewlwydDeviceLoginTests {
    @Test func approvedOnGlewlwydSignsAliceIn() async throws {
      let peer = try await GlewlwydPeer.shared.value
      let clock = ManualClock(wallTime: Date())
      let provider = OIDCProvider(
        id: "glewlwyd-device",
        configuration: .init(
          issuer: peer.rsIssuer, clientID: GlewlwydPeer.deviceClient, clientSecret: nil,
          clientAuthentication: OAuth2Configuration.ClientAuthentication.none,
          scopes: ["openid"]),
        clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let browser = GlewlwydBrowser(peer: peer, clientID: GlewlwydPeer.deviceClient)
      let shown = Mutex<DeviceLoginPrompt?>(nil)
      let login = Task {
        try await client.deviceLogin("glewlwyd-device") { prompt in
          shown.withLock { $0 = prompt }
          let complete = try #require(prompt.verificationURIComplete)
          try await browser.approveDevice(complete)
        }
      }
      let ended = Mutex(false)
      let watcher = Task {
        _ = await login.result
        ended.withLock { $0 = true }
      }
      let deadline = ContinuousClock.now.advanced(by: .seconds(60))
      while !ended.withLock({ $0 }) {
        try #require(ContinuousClock.now < deadline, "the device login did not end")
        if clock.sleeperCount > 0 { clock.advance(by: .seconds(1)) } else { await Task.yield() }
      }
      await watcher.value
      let session = try await login.value
      #expect(await session.identity?.email == GlewlwydPeer.email)
      #expect(await session.credential?.idToken != nil)
      let prompt = try #require(shown.withLock { $0 })
      #expect(prompt.verificationURI.path.hasSuffix("/api/oidc/device"))
      #expect(!prompt.userCode.isEmpty)
    }
  }
}
