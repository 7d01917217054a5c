/// Sessions loaded on demand: a replica serves a session another replica created after it
/// started, the first time one of its callers asks for it.
extension LoginClient {
  /// The live session for `key`, loaded from the store when this client does not hold it yet.
  ///
  /// This is the lookup for a service with several replicas sharing a store: the login may
  /// have happened on another replica after this one started. ``session(for:)-(SessionKey)``
  /// answers only from what this client holds, without waiting.
  ///
  /// ```swift
  /// guard let session = try await login.loadSession(key) else { throw Unauthorized() }
  /// let token = try await session.freshAccessToken()
  /// ```
  ///
  /// Callers asking for the same key while it loads share one store read (a thousand first
  /// requests cost one read), and the session they get is the one this client keeps for the
  /// key from then on: it follows the store's changes like every live session (a sign-out on
  /// another replica ends it here too). A change the store reports while the read runs is
  /// applied to the session before it is returned, and a cut in the store's feed during the
  /// read makes it read the store again before it serves a token. Nothing is cached for a key
  /// with no stored session: the next call reads the store again.
  ///
  /// - Parameter key: The account's provider and subject.
  /// - Returns: The live session, or `nil` when the store holds none for `key`.
  /// - Throws: ``AuthError/Code/unknownProvider`` when no provider is registered for the
  ///   key's provider; ``AuthError/Code/ambiguousSession`` when the store answers with the
  ///   record of another account (a key whose bytes differ); the store's errors
  ///   (``AuthError/Code/storageFailed``, ``AuthError/Code/storageTampered``, ...).
  public func loadSession(_ key: SessionKey) async throws -> SessionActor? {
    try await loadSession(key, autoRefresh: true)
  }

  /// ``loadSession(_:)``; `autoRefresh` false for a session loaded only to be ended, which
  /// must not start a refresh on its way out.
  func loadSession(_ key: SessionKey, autoRefresh: Bool) async throws -> SessionActor? {
    if let live = registry[key], live.currentState.isSignedIn { return live }
    let provider = try provider(key.provider)
    return try await registry.load(key) { [self] in
      let record: StoredSession?
      do {
        record = try await loadRecord(key, refusing: "serve")
      } catch {
        _ = registry.finishLoad(key, with: nil)
        throw error
      }
      let candidate = record.map {
        SessionActor(record: $0, provider: provider, environment: environment)
      }
      let finished = registry.finishLoad(key, with: candidate)
      guard let holder = finished.holder, holder.currentState.isSignedIn else { return nil }
      if let record {
        await settle(holder, inserted: finished.inserted, record: record, autoRefresh: autoRefresh)
      }
      for change in finished.missed.changes { await holder.follow(change) }
      if finished.missed.lostTrack { await holder.mustRereadStore() }
      return holder
    }
  }

  /// The stored record of `key`, refusing one the store matched loosely (by Swift string
  /// equality, say): it belongs to another account, which this client must never `act` on.
  func loadRecord(_ key: SessionKey, refusing act: String) async throws -> StoredSession? {
    let record = try await environment.store.load(key)
    if let record, record.key != key {
      throw AuthError(
        .ambiguousSession,
        "The store returned the session of another account for \(key); refusing to \(act) "
          + "it (subjects are compared by their UTF-8 bytes).",
        provider: key.provider)
    }
    return record
  }
}
