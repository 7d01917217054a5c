import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct RefreshFailureTests {
  @Test func adoptsSiblingsRotatedTokenWhenRefreshTokenWasAlreadySpent() async throws {
    let fixture = SessionFixture()
    let initial = try await fixture.storeInitial()
    let session = fixture.makeSession(record: initial)
    let store = fixture.store
    let sibling = Credential(
      accessToken: "at-sibling", refreshToken: "rt-sibling",
      expiresAt: fixture.clock.wallTime.addingTimeInterval(3600))
    // Another process spends rt-0 and stores its result just before our request lands.
    await fixture.provider.enqueueRefresh { spent in
      var record = initial
      record.credential = sibling
      _ = try await store.save(record, expectedVersion: initial.version)
      throw AuthError.oauth("invalid_grant")
    }
    #expect(try await session.freshAccessToken() == "at-sibling")
    #expect(session.currentState == .signedIn)
    #expect(await fixture.provider.refreshCount == 1)
    #expect(await session.credential?.refreshToken == "rt-sibling")
  }

  @Test func rereadsTheStoreBeforeSpendingTheRefreshToken() async throws {
    let fixture = SessionFixture()
    let initial = try await fixture.storeInitial()
    let session = fixture.makeSession(record: initial)
    var newer = initial
    newer.credential = Credential(
      accessToken: "at-other", refreshToken: "rt-other",
      expiresAt: fixture.clock.wallTime.addingTimeInterval(3600))
    _ = try await fixture.store.save(newer, expectedVersion: initial.version)
    #expect(try await session.freshAccessToken() == "at-other")
    #expect(await fixture.provider.refreshCount == 0)
  }

  @Test func invalidGrantWithNothingNewerSignsOutAndDeletesTheSession() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    await fixture.provider.enqueueRefresh { _ in throw AuthError.oauth("invalid_grant") }
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.code == .signedOut)
    #expect(error?.signOutReason == .refreshTokenExpired)
    #expect(session.currentState == .signedOut(.refreshTokenExpired))
    #expect(try await fixture.store.load(fixture.key) == nil)
    // Later callers get the same typed answer without another request.
    let again = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(again?.signOutReason == .refreshTokenExpired)
    #expect(await fixture.provider.refreshCount == 1)
  }

  @Test func providerSpecificClassificationDecidesTheReason() async throws {
    // X answers a spent refresh token with invalid_request, not invalid_grant.
    let fixture = SessionFixture(classifier: { error in
      if let error = error as? AuthError, error.oauth?.error == "invalid_request",
        error.oauth?.errorDescription == "Value passed for the token was invalid."
      {
        return .refreshTokenInvalid(.refreshTokenRevoked)
      }
      return .rfc6749(error)
    })
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    await fixture.provider.enqueueRefresh { _ in
      throw AuthError.oauth(
        "invalid_request", description: "Value passed for the token was invalid.")
    }
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.signOutReason == .refreshTokenRevoked)
    #expect(session.currentState == .signedOut(.refreshTokenRevoked))
  }

  @Test func transientFailureDegradesThenRecovers() async throws {
    let fixture = SessionFixture()
    let policy = RefreshPolicy(
      proactiveMargin: nil,
      backoff: BackoffPolicy(baseDelay: .seconds(10), random: { $0.upperBound }))
    let session = fixture.makeSession(record: try await fixture.storeInitial(), policy: policy)
    await session.startAutoRefresh()
    await fixture.provider.enqueueRefresh { _ in
      throw AuthError(.serverUnavailable, "503 from provider", httpStatus: 503)
    }
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.isTransient == true)
    let retryAt = fixture.clock.wallTime.addingTimeInterval(10)
    #expect(session.currentState == .degraded(retryAt: retryAt))
    // Still holding its tokens, and not hammering the provider before retryAt.
    #expect(await session.credential?.refreshToken == "rt-0")
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(await fixture.provider.refreshCount == 1)

    var states = session.states.makeAsyncIterator()
    #expect(await states.next() == .degraded(retryAt: retryAt))
    try await fixture.clock.waitForSleepers(count: 1)
    fixture.clock.advance(by: .seconds(10))
    #expect(await states.next() == .signedIn)
    #expect(await fixture.provider.refreshCount == 2)
    #expect(try await session.freshAccessToken() == "at-1001")
  }

  @Test func retryAfterFromTheProviderIsHonoured() async throws {
    let fixture = SessionFixture()
    let policy = RefreshPolicy(
      proactiveMargin: nil,
      backoff: BackoffPolicy(baseDelay: .seconds(1), random: { $0.upperBound }))
    let session = fixture.makeSession(record: try await fixture.storeInitial(), policy: policy)
    let retryAfter = fixture.clock.wallTime.addingTimeInterval(120)
    await fixture.provider.enqueueRefresh { _ in
      throw AuthError(.serverUnavailable, "429", httpStatus: 429, retryAfter: retryAfter)
    }
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(session.currentState == .degraded(retryAt: retryAfter))
  }

  @Test func persistsBeforePublishingUnderAFailingStore() async throws {
    let flaky = FlakyStore(base: InMemorySessionStore())
    let fixture = SessionFixture(store: flaky)
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    var states = session.states.makeAsyncIterator()
    #expect(await states.next() == .signedIn)

    flaky.failWrites(true)
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.code == .storageFailed)
    // Nothing published as a success, nothing returned, the store still has the old pair.
    guard case .degraded = await states.next() else {
      Issue.record("expected degraded after the failed write")
      return
    }
    #expect(try await flaky.load(fixture.key)?.credential.refreshToken == "rt-0")
    #expect(await session.credential?.accessToken == "at-0")

    // Once the store heals, the tokens the provider already issued are persisted, not lost:
    // no second refresh request spends the rotated-away rt-0.
    flaky.failWrites(false)
    fixture.clock.advance(by: .seconds(600))
    #expect(try await session.freshAccessToken() == "at-1001")
    #expect(await states.next() == .signedIn)
    #expect(await fixture.provider.refreshCount == 1)
    #expect(try await flaky.load(fixture.key)?.credential.refreshToken == "rt-1001")
  }

  @Test func expiredTokenWithoutRefreshSignsOut() async throws {
    let clock = ManualClock()
    let provider = ScriptedProvider(capabilities: [], clock: clock)
    let store = InMemorySessionStore()
    let key = SessionKey(provider: "scripted", subject: "u")
    let record = try await store.save(
      StoredSession(
        key: key,
        credential: Credential(accessToken: "at", expiresAt: clock.wallTime.addingTimeInterval(60))),
      expectedVersion: nil)
    let session = SessionActor(
      record: record, provider: provider, store: store, clock: clock,
      policy: RefreshPolicy(leeway: .zero, proactiveMargin: nil))
    #expect(try await session.freshAccessToken() == "at")
    clock.advance(by: .seconds(61))
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.signOutReason == .accessTokenExpired)
  }

  @Test func serverClockSkewIsCorrected() async throws {
    // The server's clock runs an hour ahead: its absolute expiry must be read on its clock.
    let clock = ManualClock()
    let credential = Credential(
      accessToken: "at", refreshToken: "rt",
      expiresAt: clock.wallTime.addingTimeInterval(3600 + 600), serverTimeOffset: 3600)
    #expect(credential.localExpiresAt == clock.wallTime.addingTimeInterval(600))
    #expect(credential.isValid(at: clock.wallTime, minimumTTL: 599))
    #expect(!credential.isValid(at: clock.wallTime, minimumTTL: 601))
  }

  @Test func signOutRevokesDeletesAndEndsTheStream() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial(expiresIn: 3600))
    let states = session.states
    let outcome = try await session.signOut()
    guard case .revoked = outcome else {
      Issue.record("expected revoked, got \(outcome)")
      return
    }
    #expect(await fixture.provider.revokedAccessTokens == ["at-0"])
    #expect(try await fixture.store.load(fixture.key) == nil)
    var seen: [AuthState] = []
    for await state in states { seen.append(state) }
    #expect(seen == [.signedIn, .signedOut(.userInitiated)])
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.code == .signedOut)
  }

  /// An error the provider's code already classified keeps its meaning in the OAuth
  /// classifiers, with the default reason when it carries none.
  @Test func anAlreadyClassifiedErrorKeepsItsMeaning() {
    let invalid = AuthError(.refreshTokenInvalid, "dead")
    let signedOut = AuthError(.signedOut, "gone")
    let disabled = AuthError(.signedOut, "gone", signOutReason: .accountDisabled)
    for classify in [RefreshFailure.rfc6749, XProvider.classify] {
      #expect(classify(invalid) == .refreshTokenInvalid(.refreshTokenExpired))
      #expect(classify(signedOut) == .terminal(.refreshTokenRevoked))
      #expect(classify(disabled) == .terminal(.accountDisabled))
    }
  }
}
