import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// Compare-and-swap semantics that every ``SessionStore`` must share: the checks live in
/// ``SessionStoreContract`` (SocialLoginTesting) so that the Redis store's tests run the very
/// same ones.
@Suite(.timeLimit(.minutes(1))) struct StorageContractTests {
  @Test(arguments: StoreKind.allCases, SessionStoreContract.allCases)
  func storeKeepsTheContract(kind: StoreKind, check: SessionStoreContract) async throws {
    try await kind.withStore { store in try await check.run(on: store) }
  }

  /// Found by fuzzing: a store file holding version `UInt64.max` made the next save trap on
  /// `+ 1`. Versions come from outside; the write now fails with a typed error.
  @Test func aVersionAtItsMaximumFailsTheWriteInsteadOfTrapping() async throws {
    var session = sampleSession()
    session.version = .max
    let store = InMemorySessionStore(sessions: [session])
    let error = await #expect(throws: AuthError.self) {
      try await store.save(session, expectedVersion: .max)
    }
    #expect(error?.code == .storageFailed)
    #expect(try await store.load(session.key)?.version == .max)
  }
}
