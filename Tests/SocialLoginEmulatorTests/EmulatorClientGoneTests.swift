import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// A request held by a latency fault whose client goes away is dropped unspent, as a provider
/// drops the work of a client that disconnected before it answered: the refresh token it
/// carried still works. (What the multi-replica tests rely on when they kill a leader.)
@Suite("Emulator: a held request whose client goes away", .timeLimit(.minutes(2)))
struct EmulatorClientGoneTests {
  @Test(arguments: [true, false])
  func aHeldRefreshIsSpentOnlyIfItsClientStays(clientLeaves: Bool) async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.x(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      let credential = try #require(await session.credential)
      emulator.inject(
        EmulatorFault(
          provider: .twitter, endpoint: "token", latencyMilliseconds: clientLeaves ? 30_000 : 200,
          count: 1))
      let held = Task { try await provider.refresh(credential) }
      // The fault is taken (and the request held) once the request has arrived.
      try await waitUntil { emulator.faults.isEmpty }
      if clientLeaves {
        held.cancel()  // the transport closes the connection
        _ = try? await held.value
        try await waitUntil {
          emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token")
            .contains { $0.status == 0 }
        }
        // Not spent: the same refresh token still refreshes.
        let again = try await provider.refresh(credential)
        #expect(again.refreshToken != credential.refreshToken)
        let statuses = emulator.requests(
          to: .twitter, endpoint: "token", grantType: "refresh_token"
        ).map(\.status)
        #expect(statuses == [0, 200])
      } else {
        let answered = try await held.value
        #expect(answered.refreshToken != credential.refreshToken)
        // Spent: X's refresh tokens are single use.
        await #expect(throws: AuthError.self) { _ = try await provider.refresh(credential) }
      }
    }
  }

  /// Polls `condition` every 5 ms for at most 20 s; a bug fails the test instead of hanging it.
  func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() {
      guard ContinuousClock.now < deadline else {
        Issue.record("condition not met within 20 s")
        throw CancellationError()
      }
      try await Task.sleep(for: .milliseconds(5))
    }
  }
}
