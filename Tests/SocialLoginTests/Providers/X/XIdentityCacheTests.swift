import Foundation
import Testing

@testable import SocialLogin

@Suite("X: the identity cache is bounded, expires, and never holds a raw token")
struct XIdentityCacheTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let policy = XIdentityCachePolicy(maximumAge: 600, maximumEntries: 3)

  func identity(_ subject: String) -> Identity { Identity(provider: .twitter, subject: subject) }

  @Test func anIdentityLastsUntilTheTokensExpiryBoundedByTheMaximumAge() {
    var cache = XIdentityCache()
    cache.insert(
      identity("1"), for: Secret("token-1"), now: now, expiresAt: now.addingTimeInterval(60),
      policy: policy)
    cache.insert(
      identity("2"), for: Secret("token-2"), now: now, expiresAt: nil, policy: policy)
    #expect(cache.identity(for: Secret("token-1"), now: now.addingTimeInterval(59))?.subject == "1")
    #expect(cache.identity(for: Secret("token-1"), now: now.addingTimeInterval(60)) == nil)
    #expect(cache.identity(for: Secret("token-2"), now: now.addingTimeInterval(599)) != nil)
    #expect(cache.identity(for: Secret("token-2"), now: now.addingTimeInterval(600)) == nil)
    #expect(cache.identity(for: Secret("token-3"), now: now) == nil)
  }

  @Test func theOldestGoFirstBeyondTheBound() {
    var cache = XIdentityCache()
    for index in 1...5 {
      cache.insert(
        identity("\(index)"), for: Secret("token-\(index)"), now: now, expiresAt: nil,
        policy: policy)
    }
    #expect(cache.count == 3)
    #expect(cache.identity(for: Secret("token-1"), now: now) == nil)
    #expect(cache.identity(for: Secret("token-5"), now: now)?.subject == "5")
    cache.remove(Secret("token-5"))
    #expect(cache.identity(for: Secret("token-5"), now: now) == nil)
  }

  @Test func theKeyIsTheTokensHashAndADisabledCacheKeepsNothing() {
    let key = XIdentityCache.key(Secret("token-1"))
    #expect(key.count == 32)
    #expect(key != Array("token-1".utf8))
    var cache = XIdentityCache()
    cache.insert(
      identity("1"), for: Secret("token-1"), now: now, expiresAt: nil,
      policy: XIdentityCachePolicy(isEnabled: false))
    #expect(cache.count == 0)
    // The cache's dump says nothing of the token.
    #expect(!String(describing: cache).contains("token-1"))
  }
}
