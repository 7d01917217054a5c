import Foundation

/// Google's x509 certificates for Firebase ID tokens (`{"<kid>": "-----BEGIN CERTIFICATE-----
/// ..."}`), fetched once, shared by concurrent callers, and kept for the response's
/// `Cache-Control: max-age`.
///
/// A `kid` it does not know triggers one refetch (Google rotates keys), at most once per
/// ``JWKSCache/Policy/unknownKeyRefetchInterval``; when a refetch fails the previous keys are
/// served, for at most ``JWKSCache/Policy/maximumStaleness`` past their `max-age` (the same
/// rule as ``JWKSCache``). Certificates that are not strict PEM/DER X.509 RSA keys are skipped and listed in
/// ``skipped``.
public actor FirebaseCertificateCache: JWTKeyResolver {
  /// The certificates URL.
  public nonisolated let url: URL
  /// Timing rules (the same as for JWK Sets).
  public nonisolated let policy: JWKSCache.Policy
  private let transport: any HTTPTransport
  private let clock: any AuthClock

  private var keys: [JWK]?
  private var freshness = KeyFreshness()
  private var lastUnknownKeyRefetch: TimeInterval?
  private var flights = KeyFetchFlights<Fetched>()

  /// How many fetches were started (diagnostics and tests).
  public var fetchCount: Int { flights.started }
  /// The key ids of certificates the last fetch skipped, with why.
  public private(set) var skipped: [String: JOSEError] = [:]

  private struct Fetched: Sendable {
    var keys: [JWK]
    var skipped: [String: JOSEError]
    var timeToLive: TimeInterval
  }

  /// Creates an empty cache; the first use fetches.
  public init(
    url: URL, transport: any HTTPTransport, clock: any AuthClock = SystemAuthClock(),
    policy: JWKSCache.Policy = JWKSCache.Policy()
  ) {
    self.url = url
    self.transport = transport
    self.clock = clock
    self.policy = policy
  }

  /// The key whose certificate `header.kid` names, refetching once for an unknown `kid`.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with ``JOSEError/Reason/keyNotFound`` for a
  ///   header without `kid` or with an unknown one, or the fetch error when no certificates
  ///   are available at all.
  public func candidateKeys(for header: JOSEHeader) async throws(AuthError) -> [JWK] {
    guard let keyID = header.keyID else {
      throw JOSEError(.keyNotFound, "The token has no 'kid' header.").asAuthError
    }
    var current = try await currentKeys()
    if !current.contains(where: { $0.keyID == keyID }) {
      let now = clock.coarseWallTime
      if flights.isFlying
        || lastUnknownKeyRefetch.map({ now - $0 >= policy.unknownKeyRefetchInterval }) ?? true
      {
        lastUnknownKeyRefetch = now
        current = try await refresh()
      }
    }
    let matching = current.filter { $0.keyID == keyID }
    guard !matching.isEmpty else {
      throw JOSEError(.keyNotFound, "No Firebase certificate has the kid '\(keyID)'.").asAuthError
    }
    return matching
  }

  private func currentKeys() async throws(AuthError) -> [JWK] {
    if let keys,
      try freshness.servesWithoutFetching(
        hasKeys: true, now: clock.coarseWallTime, policy: policy)
    {
      return keys
    }
    return try await refresh()
  }

  private func refresh() async throws(AuthError) -> [JWK] {
    let (url, transport, policy) = (self.url, self.transport, self.policy)
    let flight = flights.join {
      Task {
        await AuthObservation.keySetFetch(provider: .firebase) {
          await Self.fetch(url: url, transport: transport, policy: policy)
        }
      }
    }
    let result = await flight.task.value
    let now = clock.coarseWallTime
    if flights.land(flight) {
      switch result {
      case .success(let fetched):
        keys = fetched.keys
        skipped = fetched.skipped
        freshness.fetched(now: now, timeToLive: fetched.timeToLive)
      case .failure(let error):
        freshness.failed(error, hasKeys: keys != nil, now: now, policy: policy)
      }
    }
    switch result {
    case .success(let fetched): return fetched.keys
    case .failure(let error):
      if let keys,
        try freshness.servesAfterFailure(error, hasKeys: true, now: now, policy: policy)
      {
        return keys
      }
      throw error
    }
  }

  private static func fetch(url: URL, transport: any HTTPTransport, policy: JWKSCache.Policy)
    async -> Result<Fetched, AuthError>
  {
    let response: TransportResponse
    switch await KeyDocumentFetch.get(
      url, transport: transport, policy: policy, endpoint: "Firebase certificates",
      provider: .firebase, networkMessage: { _ in "Fetching the Firebase certificates failed." })
    {
    case .success(let fetched): response = fetched
    case .failure(let error): return .failure(error)
    }
    guard let document = try? JSONValue(parsing: response.body).objectValue else {
      return .failure(
        AuthError(
          .invalidResponse, "The Firebase certificates are not a JSON object.",
          provider: .firebase, httpStatus: response.status))
    }
    var keys: [JWK] = []
    var skipped: [String: JOSEError] = [:]
    for (keyID, value) in document.sorted(by: { $0.key < $1.key }) {
      guard let pem = value.stringValue else {
        skipped[keyID] = JOSEError(.invalidKey, "The certificate is not a string.")
        continue
      }
      do throws(JOSEError) {
        keys.append(try FirebaseCertificate.key(keyID: keyID, pem: pem))
      } catch {
        skipped[keyID] = error
      }
    }
    return .success(
      Fetched(keys: keys, skipped: skipped, timeToLive: policy.timeToLive(for: response.headers)))
  }
}
