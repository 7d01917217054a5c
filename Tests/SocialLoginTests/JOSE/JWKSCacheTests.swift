import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct JWKSCacheTests {
  let url = URL(string: "https://idp.example/jwks")!
  let clock = ManualClock()
  let stub = StubTransport()

  static let setV1 = #"{"keys":[\#(JOSEFixtures.rsaJWK),\#(JOSEFixtures.ec1JWK)]}"#
  static let setV2 = #"{"keys":[\#(JOSEFixtures.ec1JWK),\#(JOSEFixtures.ec2JWK)]}"#

  func cache() -> JWKSCache {
    JWKSCache(url: url, transport: stub, clock: clock)
  }

  func validator(_ cache: JWKSCache) -> IDTokenValidator {
    IDTokenValidator(
      configuration: .init(issuer: "https://issuer.example", clientID: "client-1"), keys: cache,
      clock: clock)
  }

  @Test func maxAgeIsHonoured() async throws {
    stub.on(
      "GET", "/jwks", reply: .json(Self.setV1, headers: ["Cache-Control": "public, max-age=600"]))
    stub.on(
      "GET", "/jwks", repeating: true,
      reply: .json(Self.setV2, headers: ["Cache-Control": "max-age=600"]))
    let cache = cache()
    #expect(try await cache.keySet().keys.map(\.keyID) == ["rsa-1", "ec-1"])
    clock.advance(by: .seconds(599))
    #expect(try await cache.keySet().keys.map(\.keyID) == ["rsa-1", "ec-1"])
    #expect(stub.requestCount(path: "/jwks") == 1)
    clock.advance(by: .seconds(1))
    #expect(try await cache.keySet().keys.map(\.keyID) == ["ec-1", "ec-2"])
    #expect(stub.requestCount(path: "/jwks") == 2)
    #expect(stub.requests.first?.headers["Accept"] == "application/json")
  }

  @Test func maxAgeIsClampedToTheFloorAndCeiling() {
    let policy = JWKSCache.Policy(minimumTTL: 60, maximumTTL: 86_400, defaultTTL: 3_600)
    #expect(policy.timeToLive(for: ["Cache-Control": "max-age=5"]) == 60)
    #expect(policy.timeToLive(for: ["Cache-Control": "no-store"]) == 60)
    #expect(policy.timeToLive(for: ["Cache-Control": "max-age=99999999"]) == 86_400)
    #expect(
      policy.timeToLive(for: ["cache-control": "public, MAX-AGE=7200", "Age": "200"]) == 7_000)
    #expect(policy.timeToLive(for: [:]) == 3_600)
    #expect(policy.timeToLive(for: ["Cache-Control": "max-age=abc"]) == 3_600)
  }

  /// Found by fuzzing: `Double("nan")` and `Double("inf")` parse, and a NaN time to live
  /// survived the clamping (every comparison with NaN is false).
  @Test func onlyDigitsCountAsAnAge() {
    let policy = JWKSCache.Policy(minimumTTL: 60, maximumTTL: 86_400, defaultTTL: 3_600)
    for value in ["nan", "inf", "-5", "1e9", "+60", " "] {
      #expect(policy.timeToLive(for: ["Cache-Control": "max-age=\(value)"]) == 3_600)
      #expect(policy.timeToLive(for: ["Cache-Control": "max-age=600", "Age": value]) == 600)
    }
    #expect(
      policy.timeToLive(for: ["Cache-Control": "max-age=\(String(repeating: "9", count: 400))"])
        == 86_400)
  }

  @Test func unknownKidRefetchesOnceThenIsRateLimited() async throws {
    stub.on(
      "GET", "/jwks", repeating: true,
      reply: .json(Self.setV1, headers: ["Cache-Control": "max-age=3600"]))
    let cache = cache()
    let validator = validator(cache)
    _ = try await validator.validate(JOSEFixtures.es256, nonce: nil)
    #expect(stub.requestCount(path: "/jwks") == 1)
    // ec-2 is unknown: one refetch, still unknown.
    #expect(
      await asyncJOSEReason {
        _ = try await validator.validate(JOSEFixtures.es256Rotated, nonce: nil)
      }
        == .keyNotFound)
    #expect(stub.requestCount(path: "/jwks") == 2)
    // Within 60 s: no further fetches, however many forged kids arrive.
    for _ in 0..<5 {
      #expect(
        await asyncJOSEReason {
          _ = try await validator.validate(JOSEFixtures.es256Rotated, nonce: nil)
        }
          == .keyNotFound)
    }
    clock.advance(by: .seconds(59))
    #expect(
      await asyncJOSEReason {
        _ = try await validator.validate(JOSEFixtures.es256Rotated, nonce: nil)
      }
        == .keyNotFound)
    #expect(stub.requestCount(path: "/jwks") == 2)
    clock.advance(by: .seconds(1))
    _ = await asyncJOSEReason {
      _ = try await validator.validate(JOSEFixtures.es256Rotated, nonce: nil)
    }
    #expect(stub.requestCount(path: "/jwks") == 3)
  }

  @Test func keyRotationIsPickedUpByTheUnknownKidRefetch() async throws {
    stub.on("GET", "/jwks", reply: .json(Self.setV1))
    stub.on("GET", "/jwks", repeating: true, reply: .json(Self.setV2))
    let cache = cache()
    let validator = validator(cache)
    _ = try await validator.validate(JOSEFixtures.es256, nonce: nil)
    let jwt = try await validator.validate(JOSEFixtures.es256Rotated, nonce: nil)
    #expect(jwt.keyID == "ec-2")
    #expect(await cache.fetchCount == 2)
  }

  @Test func hundredConcurrentCallersShareOneFetch() async throws {
    stub.on("GET", "/jwks", repeating: true, reply: .json(Self.setV1))
    stub.holdResponses()
    let cache = cache()
    let validator = validator(cache)
    try await withThrowingTaskGroup(of: String?.self) { group in
      for index in 0..<100 {
        let token = index.isMultiple(of: 2) ? JOSEFixtures.rs256 : JOSEFixtures.es256
        group.addTask { try await validator.validate(token, nonce: nil).subject }
      }
      await stub.waitUntilHeld(count: 1)
      stub.release()
      var subjects: [String?] = []
      for try await subject in group { subjects.append(subject) }
      #expect(subjects.count == 100)
      #expect(subjects.allSatisfy { $0 == "user-1" })
    }
    #expect(stub.requestCount(path: "/jwks") == 1)
    #expect(await cache.fetchCount == 1)
  }

  @Test func oldKeysAreServedWhenARefetchFails() async throws {
    stub.on("GET", "/jwks", reply: .json(Self.setV1, headers: ["Cache-Control": "max-age=60"]))
    stub.on("GET", "/jwks", reply: .failure(AuthError(.network, "offline")))
    stub.on("GET", "/jwks", reply: .status(503))
    stub.on("GET", "/jwks", repeating: true, reply: .json(Self.setV2))
    let cache = cache()
    let validator = validator(cache)
    _ = try await validator.validate(JOSEFixtures.rs256, nonce: nil)
    clock.advance(by: .seconds(61))
    // The refetch fails: the old keys still verify.
    _ = try await validator.validate(JOSEFixtures.rs256, nonce: nil)
    #expect(await cache.lastFetchError?.code == .network)
    #expect(stub.requestCount(path: "/jwks") == 2)
    // Served from the old set until the retry interval passes.
    _ = try await validator.validate(JOSEFixtures.rs256, nonce: nil)
    #expect(stub.requestCount(path: "/jwks") == 2)
    clock.advance(by: .seconds(30))
    _ = try await validator.validate(JOSEFixtures.rs256, nonce: nil)
    #expect(await cache.lastFetchError?.code == .serverUnavailable)
    clock.advance(by: .seconds(30))
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(JOSEFixtures.rs256, nonce: nil) }
        == .keyNotFound)
    #expect(await cache.lastFetchError == nil)
    // The expiry refetch got the new set, and rsa-1 being gone caused one unknown-kid refetch.
    #expect(stub.requestCount(path: "/jwks") == 5)
  }

  /// Old keys are served while refetches fail, but only for `maximumStaleness` past their
  /// max-age; then the cache fails with a transient error, without fetching more often.
  @Test func staleKeysAreServedOnlyForABoundedTimeWhenRefetchesFail() async throws {
    #expect(JWKSCache.Policy().maximumStaleness == 86_400)
    stub.on("GET", "/jwks", reply: .json(Self.setV1, headers: ["Cache-Control": "max-age=60"]))
    stub.on("GET", "/jwks", repeating: true, reply: .status(503))
    let cache = JWKSCache(
      url: url, transport: stub, clock: clock, policy: .init(maximumStaleness: 3_600))
    _ = try await cache.keySet()
    clock.advance(by: .seconds(60 + 3_599))
    #expect(try await cache.keySet().keys.map(\.keyID) == ["rsa-1", "ec-1"])
    #expect(await cache.lastFetchError?.code == .serverUnavailable)
    clock.advance(by: .seconds(30))
    let error = await #expect(throws: AuthError.self) { _ = try await cache.keySet() }
    #expect(error?.code == .serverUnavailable)
    #expect(error?.isTransient == true)
    #expect(error?.message.contains("max-age") == true)
    // Until the retry interval passes, it fails without fetching again.
    let fetches = stub.requestCount(path: "/jwks")
    let again = await #expect(throws: AuthError.self) { _ = try await cache.keySet() }
    #expect(again?.isTransient == true)
    #expect(stub.requestCount(path: "/jwks") == fetches)
  }

  @Test func firstFetchFailureIsThrown() async throws {
    stub.on("GET", "/jwks", reply: .status(500))
    stub.on("GET", "/jwks", reply: .status(404))
    stub.on("GET", "/jwks", reply: .json(#"{"nokeys":[]}"#))
    let cache = cache()
    await #expect(throws: AuthError.self) { _ = try await cache.keySet() }
    do {
      _ = try await cache.keySet()
    } catch {
      #expect(error.code == .invalidResponse)
      #expect(error.httpStatus == 404)
    }
    do {
      _ = try await cache.keySet()
    } catch {
      #expect(error.code == .invalidResponse)
      #expect(error.joseError?.reason == .malformed)
    }
    #expect(stub.requestCount(path: "/jwks") == 3)
  }

  @Test func invalidateForcesAFetch() async throws {
    stub.on("GET", "/jwks", repeating: true, reply: .json(Self.setV1))
    let cache = cache()
    _ = try await cache.keySet()
    await cache.invalidate()
    _ = try await cache.keySet()
    #expect(stub.requestCount(path: "/jwks") == 2)
  }
}
