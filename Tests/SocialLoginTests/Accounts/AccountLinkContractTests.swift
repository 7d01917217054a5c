import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// The in-memory and file stores keep the `AccountLinkStoreContract`.
@Suite(.timeLimit(.minutes(1))) struct AccountLinkContractTests {
  @Test(arguments: AccountLinkStoreContract.allCases)
  func inMemoryStoreKeepsTheLinkContract(check: AccountLinkStoreContract) async throws {
    try await check.run(on: InMemorySessionStore())
  }

  @Test(arguments: AccountLinkStoreContract.allCases)
  func fileStoreKeepsTheLinkContract(check: AccountLinkStoreContract) async throws {
    try await withTemporaryDirectory { directory in
      try await check.run(on: FileSessionStore(directory: directory))
    }
  }

  @Test(arguments: AccountLinkStoreContract.allCases)
  func sealedFileStoreKeepsTheLinkContract(check: AccountLinkStoreContract) async throws {
    try await withTemporaryDirectory { directory in
      let ring = try StorageFileStoreSealingTests.ring(StorageFileStoreSealingTests.keyA)
      try await check.run(on: FileSessionStore(directory: directory, sealing: ring))
    }
  }

  @Test func fileLinksAreSharedByStoresOnOneDirectory() async throws {
    try await withTemporaryDirectory { directory in
      let first = try FileSessionStore(directory: directory)
      let second = try FileSessionStore(directory: directory)
      let key = SessionKey(provider: .line, subject: "U1")
      try await first.link(key, to: try AccountID("ada"))
      #expect(try await second.account(of: key) == AccountID("ada"))
      #expect(try await second.unlink(key) == AccountID("ada"))
      #expect(try await first.sessionKeys(of: AccountID("ada")).isEmpty)
    }
  }

  @Test func concurrentLinksOfOneKeyToTwoAccountsHaveOneWinner() async throws {
    try await withTemporaryDirectory { directory in
      let stores: [any AccountLinkStore] = [
        InMemorySessionStore(), try FileSessionStore(directory: directory),
      ]
      for store in stores {
        let key = SessionKey(provider: .line, subject: "contested")
        let accounts = try (0..<8).map { try AccountID("account-\($0)") }
        let winners = await withTaskGroup(of: Bool.self) { group in
          for account in accounts {
            group.addTask { (try? await store.link(key, to: account)) != nil }
          }
          return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1, "\(type(of: store))")
        let owner = try #require(try await store.account(of: key))
        for account in accounts {
          #expect(try await store.sessionKeys(of: account) == (account == owner ? [key] : []))
        }
      }
    }
  }
}
