import Foundation
import Testing

@testable import SocialLogin

/// The transitions of ``SessionLife``, the only way the phase and the record move, as pure
/// values: no actor, clock or store.
@Suite struct SessionLifeTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let issued = Credential(accessToken: "at-2", refreshToken: "rt-2", expiresAt: nil)

  func life(signedInAt: Date? = nil) -> SessionLife {
    SessionLife(
      record: StoredSession(
        key: SessionKey(provider: .facebook, subject: "u1"),
        credential: Credential(accessToken: "at-1", refreshToken: "rt-1", expiresAt: nil),
        version: 1, signedInAt: signedInAt))
  }

  func degradation(unsaved: Credential?) -> Degradation {
    Degradation(
      failures: 1, retryAt: now, lastError: AuthError(.network, "down"), unsaved: unsaved)
  }

  @Test func aRecordTakenFromTheStoreKeepsTheTimeTheSessionCountsItsLifeFrom() {
    var life = life(signedInAt: now)
    life.take(
      StoredSession(
        key: life.record.key, credential: issued, version: 2, signedInAt: nil))
    #expect(life.record.version == 2)
    #expect(life.record.signedInAt == now)
  }

  @Test func aSignedOutSessionNeverComesBack() {
    var life = life()
    let ended = life.signOut(.userInitiated)
    let recovered = life.recover()
    let degraded = life.degrade(to: degradation(unsaved: nil))
    let endedAgain = life.signOut(.storageLost)
    #expect(ended != nil)
    #expect(recovered == nil && degraded == nil && endedAgain == nil)
    #expect(life.phase.signedOutReason == .userInitiated)
  }

  @Test func aLeaseIsKeptOnlyWithUnsavedTokensAndTakenOnce() {
    var life = life()
    let lease = NoLease()
    let keptWhileHealthy = life.keep(lease)
    _ = life.degrade(to: degradation(unsaved: nil))
    let keptWithNothingUnsaved = life.keep(lease)
    _ = life.degrade(to: degradation(unsaved: issued))
    let kept = life.keep(lease)
    let keptTwice = life.keep(lease)
    let taken = life.takeKeptLease()
    let takenTwice = life.takeKeptLease()
    #expect(!keptWhileHealthy && !keptWithNothingUnsaved && !keptTwice)
    #expect(kept && taken != nil && takenTwice == nil)
    #expect(life.phase.unsaved == issued)
  }

  @Test func aFlightLandsOnlyWhileItIsTheSessionsFlight() {
    var life = life()
    let first = RefreshFlight(refreshToken: "rt-1", waiter: RefreshWaiter(), elapsed: { .zero })
    let second = RefreshFlight(refreshToken: "rt-2", waiter: RefreshWaiter(), elapsed: { .zero })
    life.start(first)
    life.start(second)
    let landedFirst = life.land(first)
    let landedSecond = life.land(second)
    #expect(!landedFirst && landedSecond)
    #expect(life.phase.flight == nil)
  }

  @Test func aCutFeedStopsTheFastPathUntilTheStoreIsReadAgain() async {
    var life = life()
    let credential = life.record.credential
    #expect(life.phase.servesUntil(credential, leeway: 0, lifetimeEnds: .infinity) == .infinity)
    life.mustReread()
    #expect(life.rereadDue)
    #expect(life.phase.servesUntil(credential, leeway: 0, lifetimeEnds: .infinity) == -.infinity)
    let failed = Task<Void, Never> {}
    life.rereading(failed)
    #expect(life.reread == failed)
    // The store could not be read: the re-read is due again, with no task.
    life.rereadEnded(failed)
    #expect(life.rereadDue && life.reread == nil)
    let read = Task<Void, Never> {}
    life.rereading(read)
    life.rereadDone()
    life.rereadEnded(read)
    #expect(!life.rereadDue && life.reread == nil)
    #expect(life.phase.servesUntil(credential, leeway: 0, lifetimeEnds: .infinity) == .infinity)
    _ = life.signOut(.userInitiated)
    life.mustReread()
    #expect(!life.rereadDue)
  }
}

/// A lease that holds nothing: the transitions only carry it.
private struct NoLease: RefreshLease {
  func release() async {}
}
