import Foundation

/// A provider's JWK Set, fetched from its `jwks_uri` and cached.
///
/// - Freshness follows the response's `Cache-Control: max-age` (minus `Age`), clamped to
///   ``Policy/minimumTTL``…``Policy/maximumTTL``; without it, ``Policy/defaultTTL``.
/// - Concurrent callers share one in-flight fetch (single-flight), so a cold start with 100
///   requests sends one HTTP request.
/// - A token whose `kid` is unknown triggers one refetch (key rotation), at most once per
///   ``Policy/unknownKeyRefetchInterval`` on the injected clock, so forged `kid`s cannot make
///   the cache hammer the provider.
/// - When a refetch fails (network, 5xx, bad document), the previous keys keep being served
///   and the fetch is retried after ``Policy/failureRetryInterval``, but only for
///   ``Policy/maximumStaleness`` (default 24 h) past their `max-age`; after that verification
///   fails with a transient ``AuthError`` until a fetch succeeds.
///
/// ```swift
/// let cache = JWKSCache(
///   url: URL(string: "https://api.line.me/oauth2/v2.1/certs")!,
///   transport: URLSessionTransport())
/// let validator = IDTokenValidator(
///   configuration: .init(issuer: "https://access.line.me", clientID: channelID),
///   keys: cache)
/// ```
public actor JWKSCache: JWTKeyResolver {
  /// Timing rules of the cache.
  public struct Policy: Sendable, Hashable {
    /// The shortest time a fetched set is kept, whatever `Cache-Control` says. Default 60 s.
    public var minimumTTL: TimeInterval
    /// The longest time a fetched set is kept. Default 24 h.
    public var maximumTTL: TimeInterval
    /// How long a set is kept when the response has no `max-age`. Default 1 h.
    public var defaultTTL: TimeInterval
    /// The least time between two fetches triggered by unknown `kid`s. Default 60 s.
    public var unknownKeyRefetchInterval: TimeInterval
    /// After a failed refetch, how long the old keys are served before trying again. Default 30 s.
    public var failureRetryInterval: TimeInterval
    /// The HTTP timeout. Default 10 s.
    public var timeout: Duration
    /// The largest accepted JWKS document. Default 256 KiB.
    public var maximumDocumentBytes: Int
    /// How long past their `max-age` cached keys are still served while refetches fail.
    /// Default 24 h; `.infinity` serves them for as long as refetches fail.
    public var maximumStaleness: TimeInterval

    /// Creates a policy.
    public init(
      minimumTTL: TimeInterval = 60,
      maximumTTL: TimeInterval = 86_400,
      defaultTTL: TimeInterval = 3_600,
      unknownKeyRefetchInterval: TimeInterval = 60,
      failureRetryInterval: TimeInterval = 30,
      timeout: Duration = .seconds(10),
      maximumDocumentBytes: Int = 256 * 1024,
      maximumStaleness: TimeInterval = 86_400
    ) {
      self.minimumTTL = minimumTTL
      self.maximumTTL = maximumTTL
      self.defaultTTL = defaultTTL
      self.unknownKeyRefetchInterval = unknownKeyRefetchInterval
      self.failureRetryInterval = failureRetryInterval
      self.timeout = timeout
      self.maximumDocumentBytes = maximumDocumentBytes
      self.maximumStaleness = maximumStaleness
    }

    /// The time to live of a JWKS response with `headers`: `Cache-Control: max-age` (0 for
    /// `no-store`/`no-cache`) minus `Age`, or ``defaultTTL``, clamped to
    /// ``minimumTTL``…``maximumTTL``.
    ///
    /// ```swift
    /// JWKSCache.Policy().timeToLive(for: ["Cache-Control": "public, max-age=7200"])  // 7200
    /// ```
    public func timeToLive(for headers: HTTPHeaderFields) -> TimeInterval {
      var ttl = defaultTTL
      if let cacheControl = headers["Cache-Control"] {
        for directive in cacheControl.lowercased().split(separator: ",") {
          let trimmed = directive.trimmingCharacters(in: .whitespaces)
          if trimmed == "no-store" || trimmed == "no-cache" {
            ttl = 0
          } else if trimmed.hasPrefix("max-age="),
            let seconds = HTTPDate.deltaSeconds(trimmed.dropFirst(8))
          {
            ttl = seconds
          }
        }
        if let age = headers["Age"].flatMap({
          HTTPDate.deltaSeconds($0.trimmingCharacters(in: .whitespaces)[...])
        }) {
          ttl -= age
        }
      }
      return min(max(ttl, minimumTTL), maximumTTL)
    }
  }

  private struct Fetched: Sendable {
    var keys: JWKSet
    var timeToLive: TimeInterval
  }

  /// The JWKS URL.
  public nonisolated let url: URL
  /// The timing rules.
  public nonisolated let policy: Policy
  private let transport: any HTTPTransport
  private let clock: any AuthClock

  private var current: JWKSet?
  private var freshness = KeyFreshness()
  private var lastUnknownKeyRefetch: TimeInterval?
  private var flights = KeyFetchFlights<Fetched>()

  /// How many fetches the cache has started (diagnostics and tests).
  public var fetchCount: Int { flights.started }
  /// The error of the most recent fetch, or `nil` if it succeeded.
  public var lastFetchError: AuthError? { freshness.lastFailure }

  /// Creates an empty cache; the first use fetches.
  ///
  /// - Parameters:
  ///   - url: The `jwks_uri`.
  ///   - transport: Sends the HTTP request.
  ///   - clock: The source of time for freshness and rate limits.
  ///   - policy: Timing rules.
  public init(
    url: URL, transport: any HTTPTransport, clock: any AuthClock = SystemAuthClock(),
    policy: Policy = Policy()
  ) {
    self.url = url
    self.transport = transport
    self.clock = clock
    self.policy = policy
  }

  /// The current key set, fetching it when missing or stale.
  ///
  /// - Throws: the fetch error (``AuthError/Code/network``, ``AuthError/Code/serverUnavailable``,
  ///   ``AuthError/Code/invalidResponse``, ...) when no earlier set is available, or when the
  ///   earlier set is more than ``Policy/maximumStaleness`` past its `max-age`.
  public func keySet() async throws(AuthError) -> JWKSet {
    if let current,
      try freshness.servesWithoutFetching(
        hasKeys: true, now: clock.coarseWallTime, policy: policy)
    {
      return current
    }
    return try await refresh()
  }

  /// The keys for `header`, refetching once when its `kid` is unknown (rate-limited).
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with ``JOSEError/Reason/keyNotFound`` when the
  ///   `kid` is still unknown, or the fetch error when no keys are available at all.
  public func candidateKeys(for header: JOSEHeader) async throws(AuthError) -> [JWK] {
    var set = try await keySet()
    if let keyID = header.keyID, set.keys(withID: keyID).isEmpty {
      let now = clock.coarseWallTime
      let mayRefetch =
        lastUnknownKeyRefetch.map { now - $0 >= policy.unknownKeyRefetchInterval } ?? true
      if flights.isFlying {
        set = try await refresh()
      } else if mayRefetch {
        lastUnknownKeyRefetch = now
        set = try await refresh()
      }
    }
    do throws(JOSEError) {
      return try KeySelection.select(set.keys, header)
    } catch {
      throw error.asAuthError
    }
  }

  /// Forgets the cached set; the next use fetches again.
  public func invalidate() {
    current = nil
    freshness.invalidate()
  }

  // MARK: Fetching

  /// Joins the in-flight fetch or starts one, then applies its result exactly once.
  private func refresh() async throws(AuthError) -> JWKSet {
    let (url, transport, policy) = (self.url, self.transport, self.policy)
    let flight = flights.join {
      Task {
        await AuthObservation.keySetFetch(provider: nil) {
          await Self.fetch(url: url, transport: transport, policy: policy)
        }
      }
    }
    let result = await flight.task.value
    if flights.land(flight) { apply(result) }
    switch result {
    case .success(let fetched):
      return fetched.keys
    case .failure(let error):
      if let current,
        try freshness.servesAfterFailure(
          error, hasKeys: true, now: clock.coarseWallTime, policy: policy)
      {
        return current
      }
      throw error
    }
  }

  private func apply(_ result: Result<Fetched, AuthError>) {
    let now = clock.coarseWallTime
    switch result {
    case .success(let fetched):
      current = fetched.keys
      freshness.fetched(now: now, timeToLive: fetched.timeToLive)
    case .failure(let error):
      freshness.failed(error, hasKeys: current != nil, now: now, policy: policy)
    }
  }

  private static func fetch(
    url: URL, transport: any HTTPTransport, policy: Policy
  ) async -> Result<Fetched, AuthError> {
    do throws(AuthError) {
      try url.requireHTTPSOrLoopback("JWKS URL", provider: nil)
    } catch {
      return .failure(error)
    }
    let response: TransportResponse
    switch await KeyDocumentFetch.get(
      url, transport: transport, policy: policy, endpoint: "JWKS", provider: nil,
      networkMessage: { "Fetching the JWKS failed: \($0)" })
    {
    case .success(let fetched): response = fetched
    case .failure(let error): return .failure(error)
    }
    do throws(AuthError) {
      let keys = try JWKSet(parsing: response.body)
      return .success(Fetched(keys: keys, timeToLive: policy.timeToLive(for: response.headers)))
    } catch {
      var error = error
      error.httpStatus = response.status
      return .failure(error)
    }
  }
}
