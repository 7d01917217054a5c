/// How a ``LoginClient`` follows its store's changes (``SessionStore/changes()``), so that a
/// session signed out, revoked or replaced on one replica is ended or updated on every
/// replica that holds it, instead of each serving its cached token until it expires.
///
/// A change for a session this client does not hold is ignored: a replica holds the sessions
/// its callers asked for (``LoginClient/loadSession(_:)``), not every session of every
/// replica, and a session loaded later reads the store then. A load running when the change
/// arrives keeps it for the session it registers.
extension LoginClient {
  /// How many live sessions re-read the store at once after the change feed came back.
  static let rereadConcurrency = 16

  /// Starts following `changes` for the sessions in `registry`; the task ends when the stream
  /// does or when it is cancelled (the client's `deinit`).
  static func follow(
    _ changes: AsyncStream<SessionStoreChange>, registry: SessionRegistry, logger: AuthLogger
  ) -> Task<Void, Never> {
    Task {
      var reread: Task<Void, Never>?
      for await change in changes {
        switch change {
        case .written(let record):
          await registry.route(change, for: record.key)?.follow(change)
        case .deleted(let key, _, _):
          await registry.route(change, for: key)?.follow(change)
        case .interrupted:
          logger.log(
            .warning,
            "The session store's change feed was cut; sign-outs elsewhere are noticed when it "
              + "is back.")
        case .resumed:
          // Changes made while the feed was cut were missed: no live session serves another
          // cached token before it has read the store again, and all of them read it now.
          registry.loadsMissedChanges()
          let sessions = registry.all
          for session in sessions { await session.mustRereadStore() }
          reread?.cancel()
          reread = Task { await rereadAll(sessions) }
        }
      }
      reread?.cancel()
    }
  }

  /// Re-reads every one of `sessions` from the store, a few at a time.
  static func rereadAll(_ sessions: [SessionActor]) async {
    await withTaskGroup(of: Void.self) { group in
      var next = sessions.makeIterator()
      for _ in 0..<rereadConcurrency {
        guard let session = next.next() else { break }
        group.addTask { await session.rereadStoreIfDue() }
      }
      while await group.next() != nil {
        guard !Task.isCancelled, let session = next.next() else { continue }
        group.addTask { await session.rereadStoreIfDue() }
      }
    }
  }
}
