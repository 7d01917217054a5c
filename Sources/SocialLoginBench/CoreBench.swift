import Foundation
import SocialLogin
import SocialLoginTesting

/// An actor method returning a stored value: the floor for any actor-isolated call.
/// The value is a `var` with a setter so the call really needs the actor's isolation.
private actor BareActor {
  private var value = "token"
  func get() -> String { value }
  func set(_ newValue: String) { value = newValue }
}

enum CoreBench {
  static func run() async -> [Figure] {
    var figures: [Figure] = []
    // Registry first, so its memory figure is not inflated by the other benchmarks' garbage.
    figures.append(await registry(proactiveRefresh: false))
    figures.append(await registry(proactiveRefresh: false, observer: MetricsRecorder()))
    figures.append(await registry(proactiveRefresh: true))
    figures.append(contentsOf: await singleFlightWithAndWithoutObserver())
    figures.append(contentsOf: await freshTokenCost())
    figures.append(await streamFanout())
    figures.append(await redaction())
    return figures
  }

  /// `Redaction.scrub` on 16 KiB (the most an error excerpt scrubs): ordinary text, and runs
  /// of token characters that made the patterns quadratic before they gained lookbehinds.
  static func redaction() async -> Figure {
    let size = 16_384
    let ordinary = String(
      repeating: "The provider said: invalid_grant for this user. ", count: size / 48)
    let dotted = String(repeating: "a.", count: size / 2)
    let jwtStarts = String(repeating: "eyJ", count: size / 3)
    var fields: [(String, String)] = [("bytes", "\(size)")]
    for (name, text) in [
      ("ordinary_ms", ordinary), ("dotted_run_ms", dotted), ("jwt_run_ms", jwtStarts),
    ] {
      let nanoseconds = await measureNanoseconds(rounds: 5, iterations: 3) { count in
        for _ in 0..<count { blackHole(Redaction.scrub(text)) }
      }
      fields.append((name, format(nanoseconds / 1e6, decimals: 2)))
    }
    return Figure("redaction_adversarial", fields)
  }

  private static func expiredSession(
    store: InMemorySessionStore, clock: ManualClock, provider: ScriptedProvider,
    observer: (any AuthObserver)? = nil
  )
    async -> SessionActor?
  {
    let key = SessionKey(provider: provider.id, subject: "bench")
    let credential = Credential(
      accessToken: "at-0", refreshToken: "rt-0", expiresAt: clock.wallTime.addingTimeInterval(-1))
    guard
      let record = try? await store.save(
        StoredSession(key: key, credential: credential), expectedVersion: nil)
    else { return nil }
    return SessionActor(
      record: record, provider: provider, store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil), observer: observer)
  }

  /// 10,000 callers on an expired session; with an `observer` (a ``MetricsRecorder``), the
  /// same with every event recorded (`single_flight_observed`).
  static func singleFlight(observer: MetricsRecorder? = nil) async -> Figure {
    let name = observer == nil ? "single_flight" : "single_flight_observed"
    let clock = ManualClock()
    let provider = ScriptedProvider(clock: clock)
    guard
      let session = await expiredSession(
        store: InMemorySessionStore(), clock: clock, provider: provider, observer: observer)
    else { return Figure(name, [("error", "setup")]) }
    let start = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<10_000 {
        group.addTask { blackHole(try? await session.freshAccessToken()) }
      }
    }
    let elapsed = ContinuousClock.now - start
    return Figure(
      name,
      [
        ("callers", "10000"), ("refresh_requests", "\(await provider.refreshCount)"),
        ("wall_ms", format(elapsed.nanoseconds / 1e6)),
      ])
  }

  /// The 10,000-caller refresh without and with an observer, alternating for `rounds` rounds
  /// each (one run's wall time swings by several times on a shared machine): each figure
  /// reports its median and fastest round, and the observed one its median's ratio.
  static func singleFlightWithAndWithoutObserver(rounds: Int = 9) async -> [Figure] {
    var plain: [Double] = []
    var observed: [Double] = []
    var requests: Set<String> = []
    for _ in 0..<rounds {
      for withObserver in [false, true] {
        let figure = await singleFlight(observer: withObserver ? MetricsRecorder() : nil)
        guard let wall = figure.value("wall_ms").flatMap(Double.init) else { return [figure] }
        requests.insert(figure.value("refresh_requests") ?? "?")
        if withObserver { observed.append(wall) } else { plain.append(wall) }
      }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let requestCount =
      requests.count == 1 ? requests.first ?? "?" : requests.sorted().joined(separator: "/")
    return [
      Figure(
        "single_flight",
        [
          ("callers", "10000"), ("refresh_requests", requestCount), ("rounds", "\(rounds)"),
          ("median_ms", format(median(plain))), ("fastest_ms", format(plain.min() ?? 0)),
        ]),
      Figure(
        "single_flight_observed",
        [
          ("callers", "10000"), ("refresh_requests", requestCount), ("rounds", "\(rounds)"),
          ("median_ms", format(median(observed))), ("fastest_ms", format(observed.min() ?? 0)),
          ("median_ratio", format(median(observed) / median(plain), decimals: 3)),
        ]),
    ]
  }

  static func freshTokenCost() async -> [Figure] {
    let clock = SystemAuthClock()
    let store = InMemorySessionStore()
    let key = SessionKey(provider: "scripted", subject: "bench")
    let credential = Credential(
      accessToken: "at", refreshToken: "rt", expiresAt: Date().addingTimeInterval(86_400))
    guard
      let record = try? await store.save(
        StoredSession(key: key, credential: credential), expectedVersion: nil)
    else { return [Figure("fresh_token_ns", [("error", "setup")])] }
    let session = SessionActor(
      record: record, provider: ScriptedProvider(clock: clock), store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let observed = SessionActor(
      record: record, provider: ScriptedProvider(clock: clock), store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil), observer: MetricsRecorder())
    let bare = BareActor()
    await bare.set("token-\(Int.random(in: 0..<10))")
    let iterations = 200_000
    let fresh = await measureNanoseconds(iterations: iterations) { count in
      for _ in 0..<count { blackHole(try? await session.freshAccessToken()) }
    }
    let freshObserved = await measureNanoseconds(iterations: iterations) { count in
      for _ in 0..<count { blackHole(try? await observed.freshAccessToken()) }
    }
    let floor = await measureNanoseconds(iterations: iterations) { count in
      for _ in 0..<count { blackHole(await bare.get()) }
    }
    return [
      Figure(
        "fresh_token_ns",
        [("value", format(fresh)), ("ratio_to_bare", format(fresh / floor, decimals: 2))]),
      Figure(
        "fresh_token_observed_ns",
        [
          ("value", format(freshObserved)),
          ("ratio_to_bare", format(freshObserved / floor, decimals: 2)),
        ]),
      Figure("bare_actor_call_ns", [("value", format(floor))]),
    ]
  }

  static func streamFanout() async -> Figure {
    let clock = ManualClock()
    let provider = ScriptedProvider(clock: clock)
    guard
      let session = await expiredSession(
        store: InMemorySessionStore(), clock: clock, provider: provider)
    else { return Figure("stream_fanout", [("error", "setup")]) }
    let subscribers = 1000
    let events = 1000
    let streams = (0..<subscribers).map { _ in session.states }
    let start = ContinuousClock.now
    let delivered = await withTaskGroup(of: Int.self) { group in
      for stream in streams {
        group.addTask {
          var count = 0
          for await _ in stream { count += 1 }
          return count
        }
      }
      // Each forced refresh publishes one `.signedIn`; sign-out publishes the last event.
      for _ in 0..<(events - 1) {
        blackHole(try? await session.freshAccessToken(minimumTTL: .seconds(86_400)))
      }
      blackHole(try? await session.signOut(revoke: false))
      var total = 0
      for await count in group { total += count }
      return total
    }
    let seconds = (ContinuousClock.now - start).nanoseconds / 1e9
    return Figure(
      "stream_fanout",
      [
        ("subscribers", "\(subscribers)"), ("events", "\(events)"),
        ("deliveries", "\(delivered)"),
        ("deliveries_per_s", format(Double(delivered) / seconds, decimals: 0)),
      ])
  }

  /// 100,000 restored sessions. With `proactiveRefresh`, every session also holds a task
  /// sleeping until shortly before its token expires (the `LoginClient` default).
  /// With an `observer`, the same sessions of a client that reports events
  /// (`registry_observed`): the observer lives in the client, not in each session.
  static func registry(proactiveRefresh: Bool, observer: (any AuthObserver)? = nil) async
    -> Figure
  {
    let count = 100_000
    let clock = SystemAuthClock()
    let provider = ScriptedProvider(clock: clock)
    // Like a file or Redis store, the generated store keeps nothing in this process: the figure
    // is the registry's own memory (sessions, their credentials and identities).
    let store = GeneratedStore(count: count, provider: provider.id)
    let before = residentMegabytes()
    let policy = proactiveRefresh ? RefreshPolicy() : RefreshPolicy(proactiveMargin: nil)
    let name =
      proactiveRefresh ? "registry_proactive" : observer == nil ? "registry" : "registry_observed"
    let client: LoginClient
    do {
      client = try LoginClient(
        providers: [provider], store: store, clock: clock, policy: policy, observer: observer)
    } catch {
      return Figure(name, [("error", error.code.rawValue)])
    }
    let start = ContinuousClock.now
    _ = try? await client.restoreSessions()
    let elapsed = ContinuousClock.now - start
    let after = residentMegabytes()
    blackHole(client)
    // Cancel the sleeping refresh tasks so they do not outlive this figure.
    for session in client.sessions { await session.stopAutoRefresh() }
    return Figure(
      name,
      [
        ("sessions", "\(client.sessionCount)"), ("rss_mb", format(after)),
        ("registry_mb", format(after - before)),
        ("bytes_per_session", format((after - before) * 1_048_576 / Double(count), decimals: 0)),
        ("restore_ms", format(elapsed.nanoseconds / 1e6)),
      ])
  }
}

/// A store whose `loadAll` generates records shaped like real ones (50-byte tokens, a name, a
/// subject) and keeps none of them.
private struct GeneratedStore: SessionStore {
  let count: Int
  let provider: ProviderID

  func loadAll() async throws -> StoreSnapshot {
    StoreSnapshot(sessions: (0..<count).map(record))
  }

  func record(_ index: Int) -> StoredSession {
    StoredSession(
      key: SessionKey(provider: provider, subject: "user-\(index)"),
      credential: Credential(
        accessToken: Secret("access-token-\(index)-0123456789abcdef0123456789abcdef"),
        refreshToken: Secret("refresh-token-\(index)-0123456789abcdef"),
        expiresAt: Date().addingTimeInterval(3600)),
      identity: Identity(provider: provider, subject: "user-\(index)", name: "User \(index)"),
      version: 1)
  }

  func load(_ key: SessionKey) async throws -> StoredSession? { nil }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    throw AuthError(.unsupported, "The generated store is read-only.")
  }
  func delete(_ key: SessionKey) async throws {}
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool { false }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    throw AuthError(.unsupported, "The generated store is read-only.")
  }
}
