import Foundation

/// How the session follows what others did to its stored record (``SessionStoreChange``):
/// a sign-out elsewhere ends it with the same reason, a newer record is adopted, and after a
/// lost feed the store is re-read before another cached token is served.
extension SessionActor {
  /// Applies a change another holder of the store made to this session's record.
  ///
  /// - A deletion at this session's version or later ends it with the deletion's reason
  ///   (``SignOutReason/storageLost`` when it gave none), without deleting again.
  /// - A newer record is adopted when nothing is in flight: a refresh running here settles
  ///   its own race through the store's compare-and-swap, and tokens this session holds but
  ///   could not save yet are never replaced by a change it only heard of.
  func follow(_ change: SessionStoreChange) async {
    guard phase.isLive else { return }
    switch change {
    case .deleted(let deleted, let version, let reason):
      guard deleted == key, version >= record.version else { return }
      await endSession(reason ?? .storageLost, storedCopy: .alreadyGone)
    case .written(let written):
      guard written.key == key, written.version > record.version, phase.flight == nil,
        phase.unsaved == nil
      else { return }
      life.take(written)
      await recovered()
    case .interrupted, .resumed:
      break
    }
  }

  /// Makes the next caller re-read the store before it is served (the change feed was cut,
  /// so a sign-out or a newer record may have been missed), and returns at once.
  func mustRereadStore() {
    life.mustReread()
  }

  /// Re-reads the store if ``mustRereadStore()`` asked for it: a record gone signs out with
  /// the reason the store kept, a newer one is adopted. A store that cannot be reached
  /// leaves the check due and the session as it was (its tokens stay valid at the provider;
  /// the next caller asks the store again). Callers arriving while a re-read runs wait for it:
  /// a thousand callers of a hot session after a cut feed cost one load, not a thousand.
  func rereadStoreIfDue() async {
    guard life.rereadDue, phase.isLive else { return }
    if let running = life.reread {
      await running.value
      return
    }
    let running = Task { await self.rereadStore() }
    life.rereading(running)
    await running.value
    life.rereadEnded(running)
  }

  /// The one re-read ``rereadStoreIfDue()`` runs at a time.
  private func rereadStore() async {
    let stored: StoredSession?
    do {
      stored = try await store.load(key)
    } catch {
      logger.log(
        .warning, "Could not re-read the session after the store's change feed was cut.",
        metadata: metadata)
      return
    }
    guard life.rereadDue, phase.isLive else { return }
    life.rereadDone()
    guard let stored else {
      let reason = (try? await store.deletionReason(for: key)) ?? nil
      await endSession(reason ?? .storageLost, storedCopy: .alreadyGone)
      return
    }
    if stored.key == key, stored.version > record.version, phase.flight == nil,
      phase.unsaved == nil
    {
      life.take(stored)
      await recovered()
    }
  }
}
