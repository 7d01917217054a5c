import Foundation

/// The HTTP half of the key caches: one `GET` of a key document (a JWKS, Firebase's certificate
/// map) within ``JWKSCache/Policy``'s timeout and size limit, and the status check.
///
/// ``JWKSCache`` and ``FirebaseCertificateCache`` share it, so both classify failures the same
/// way (a thrown transport error stays as it is or becomes `network`; 5xx and 429 are
/// `serverUnavailable`, any other non-200 `invalidResponse`) and both take their freshness from
/// ``JWKSCache/Policy/timeToLive(for:)`` on the returned headers. A URL that is neither `https`
/// nor `http` to a loopback host is refused (``AuthError/Code/configuration``) unfetched.
enum KeyDocumentFetch {
  /// `GET url` asking for JSON; the response when it is HTTP 200.
  ///
  /// - Parameters:
  ///   - endpoint: How the status error names the endpoint (`"JWKS"`).
  ///   - provider: The provider the status error names, if any.
  ///   - networkMessage: The message of the `network` error for a transport failure.
  static func get(
    _ url: URL, transport: any HTTPTransport, policy: JWKSCache.Policy, endpoint: String,
    provider: ProviderID?, networkMessage: (any Error) -> String
  ) async -> Result<TransportResponse, AuthError> {
    // Keys decide which tokens are trusted: never over plain http to another machine.
    do throws(AuthError) {
      try url.requireHTTPSOrLoopback("\(endpoint) URL", provider: provider)
    } catch {
      return .failure(error)
    }
    let request = TransportRequest(
      url: url, headers: ["Accept": "application/json"], timeout: policy.timeout,
      maxResponseBytes: policy.maximumDocumentBytes)
    let response: TransportResponse
    do {
      response = try await transport.send(request)
    } catch let error as AuthError {
      return .failure(error)
    } catch {
      return .failure(AuthError(.network, networkMessage(error), underlying: error))
    }
    guard response.status == 200 else {
      let code: AuthError.Code =
        response.status >= 500 || response.status == 429 ? .serverUnavailable : .invalidResponse
      return .failure(
        AuthError(
          code, "The \(endpoint) endpoint answered HTTP \(response.status).", provider: provider,
          httpStatus: response.status))
    }
    return .success(response)
  }
}

/// The freshness rule of the key caches (``JWKSCache`` and ``FirebaseCertificateCache``),
/// kept in one place so both apply it the same way.
///
/// Keys are served without a fetch until their `max-age` (``JWKSCache/Policy/timeToLive(for:)``)
/// ends, then refetched. When a refetch fails the previous keys keep being served, the fetch
/// being retried after ``JWKSCache/Policy/failureRetryInterval``, but only until
/// ``JWKSCache/Policy/maximumStaleness`` past their `max-age`: after that a verification fails
/// with a transient error (the fetch's own code, saying the keys are too stale) instead of
/// trusting keys the provider may have withdrawn long ago.
struct KeyFreshness: Sendable {
  /// Until when (local time, seconds since 1970) the cached keys are served without a fetch.
  private var fetchAt: TimeInterval = -.infinity
  /// When the cached keys' own `max-age` ended.
  private var expiresAt: TimeInterval = -.infinity
  /// Why the most recent fetch failed, `nil` after a success.
  private(set) var lastFailure: AuthError?

  /// Whether cached keys (`hasKeys`) are served at `now` without fetching; `false`: fetch.
  ///
  /// - Throws: the last fetch error, marked as too stale, when the keys are past the bound and
  ///   the next fetch is not due yet.
  func servesWithoutFetching(hasKeys: Bool, now: TimeInterval, policy: JWKSCache.Policy)
    throws(AuthError) -> Bool
  {
    guard hasKeys, now < fetchAt else { return false }
    guard now < expiresAt + policy.maximumStaleness else {
      throw Self.tooStale(
        lastFailure ?? AuthError(.network, "Refetching the keys failed."), policy: policy)
    }
    return true
  }

  /// Whether cached keys (`hasKeys`) may still be served after a fetch failed with `error`.
  ///
  /// - Throws: `error` when there are no keys, or `error` marked as too stale when the keys
  ///   are past ``JWKSCache/Policy/maximumStaleness``.
  func servesAfterFailure(
    _ error: AuthError, hasKeys: Bool, now: TimeInterval, policy: JWKSCache.Policy
  ) throws(AuthError) -> Bool {
    guard hasKeys else { throw error }
    guard now < expiresAt + policy.maximumStaleness else {
      throw Self.tooStale(error, policy: policy)
    }
    return true
  }

  /// Records a fetch that returned keys valid for `timeToLive` seconds.
  mutating func fetched(now: TimeInterval, timeToLive: TimeInterval) {
    fetchAt = now + timeToLive
    expiresAt = fetchAt
    lastFailure = nil
  }

  /// Records a failed fetch; with keys cached, the next fetch waits for the retry interval.
  mutating func failed(
    _ error: AuthError, hasKeys: Bool, now: TimeInterval, policy: JWKSCache.Policy
  ) {
    lastFailure = error
    if hasKeys { fetchAt = now + policy.failureRetryInterval }
  }

  /// Forgets the timing: the next use fetches.
  mutating func invalidate() {
    fetchAt = -.infinity
    expiresAt = -.infinity
  }

  /// `cause` (a failed refetch) as the error of keys served too long past their `max-age`:
  /// transient (the fetch's own code when it is transient, otherwise `invalidResponse`), with
  /// `cause` as the underlying error.
  static func tooStale(_ cause: AuthError, policy: JWKSCache.Policy) -> AuthError {
    var error = AuthError(
      cause.isTransient ? cause.code : .invalidResponse,
      "The cached keys are more than \(Int(policy.maximumStaleness)) s past their max-age and "
        + "refetching them failed: \(cause.message)",
      provider: cause.provider, underlying: cause)
    error.httpStatus = cause.httpStatus
    return error
  }
}

/// The one fetch a key cache (``JWKSCache``, ``FirebaseCertificateCache``) has in flight, so
/// concurrent callers share it and its result is applied exactly once, by the caller whose
/// flight it still is.
///
/// ```swift
/// let flight = flights.join { Task { await Self.fetch(...) } }   // starts one if none
/// let result = await flight.task.value
/// if flights.land(flight) { apply(result) }                       // once per fetch
/// ```
struct KeyFetchFlights<Fetched: Sendable>: Sendable {
  struct Flight: Sendable {
    let id: Int
    let task: Task<Result<Fetched, AuthError>, Never>
  }

  private var current: Flight?
  private var nextID = 0
  /// How many fetches were started.
  private(set) var started = 0

  /// Whether a fetch is in flight.
  var isFlying: Bool { current != nil }

  /// The fetch in flight, or a new one from `start`.
  mutating func join(_ start: () -> Task<Result<Fetched, AuthError>, Never>) -> Flight {
    if let current { return current }
    nextID += 1
    started += 1
    let flight = Flight(id: nextID, task: start())
    current = flight
    return flight
  }

  /// Ends `flight` when it is still the one in flight: `true` once per fetch, for the caller
  /// that applies its result.
  mutating func land(_ flight: Flight) -> Bool {
    guard current?.id == flight.id else { return false }
    current = nil
    return true
  }
}
