import Foundation

/// A transmitter of Security Event Tokens (RFC 8417) that publishes its issuer and keys in a
/// configuration document of its own — Google's RISC configuration
/// (`/.well-known/risc-configuration`), Kakao's security event configuration
/// (`/.well-known/sse-configuration`) — rather than with its ID-token keys.
///
/// Its SETs are checked against what the document says, never a constant: Google's RISC
/// issuer is `https://accounts.google.com/` with a trailing slash, unlike its ID tokens'. The
/// document is fetched over https (http only to a loopback host, the emulator), bounded in
/// size like a JWKS, and kept for its `max-age` (``JWKSCache/Policy``); its `jwks_uri` is a
/// ``JWKSCache`` that refetches once for an unknown `kid`. When the keys still lack that
/// `kid`, the document itself is fetched again (at most once per
/// ``JWKSCache/Policy/unknownKeyRefetchInterval``), in case the transmitter moved its keys.
/// A failed fetch throws a transient ``AuthError`` (`network`, `serverUnavailable`,
/// `invalidResponse`) that the receiver answers with 503, so the transmitter delivers again.
actor SecurityEventIssuer {
  /// What the configuration document said, and the keys it names.
  struct Published: Sendable {
    /// The `issuer` every SET must carry, as published.
    var issuer: String
    /// The `jwks_uri`.
    var keysURL: URL
    /// Its keys.
    var keys: JWKSCache
    /// Until when (seconds since 1970, the clock's) the document is used without a fetch.
    var freshUntil: TimeInterval
  }

  /// Verifies the signature with `published`'s keys; when they lack the token's `kid` even
  /// after their own refetch, fetches the document again (rate-limited) in case it names new
  /// keys, and tries once more.
  private func verified(_ token: String, published: inout Published) async throws(AuthError)
    -> VerifiedJWS
  {
    let verifier = JWSVerifier(allowedAlgorithms: [.rs256])
    let first: AuthError
    do {
      return try await verifier.verify(token, resolver: published.keys)
    } catch {
      first = error
    }
    let now = clock.coarseWallTime
    guard first.joseError?.reason == .keyNotFound,
      lastUnknownKeyFetch.map({ now - $0 >= policy.unknownKeyRefetchInterval }) ?? true
    else { throw first }
    lastUnknownKeyFetch = now
    published = try await refetch()
    return try await verifier.verify(token, resolver: published.keys)
  }

  /// What a SET must satisfy beyond its transmitter's issuer and keys.
  struct Rules: Sendable {
    /// The `aud` values accepted: the client id and the app client ids (Google), the REST API
    /// key (Kakao).
    var audiences: [String]
    /// Whether the header must say `typ: secevent+jwt` (Kakao); otherwise it is checked only
    /// when present.
    var requiresType: Bool
    /// How old (`iat`) a SET may be.
    var maximumAge: TimeInterval
    /// Clock-skew tolerance.
    var leeway: TimeInterval
  }

  /// The configuration document's URL.
  nonisolated let url: URL
  /// The provider whose events these are, for error messages.
  nonisolated let provider: ProviderID
  private let transport: any HTTPTransport
  private let clock: any AuthClock
  private let policy: JWKSCache.Policy
  private var published: Published?
  private var flight: Task<Result<Published, AuthError>, Never>?
  private var lastUnknownKeyFetch: TimeInterval?

  /// How many times the configuration document was fetched (tests).
  private(set) var fetchCount = 0

  init(
    url: URL, provider: ProviderID, transport: any HTTPTransport, clock: any AuthClock,
    policy: JWKSCache.Policy = JWKSCache.Policy(maximumDocumentBytes: 64 * 1024)
  ) {
    self.url = url
    self.provider = provider
    self.transport = transport
    self.clock = clock
    self.policy = policy
  }

  /// The published issuer and keys, fetching the document when missing or stale. Stale
  /// ones keep serving while a refetch fails (the keys have their own staleness bound).
  func current() async throws(AuthError) -> Published {
    if let published, clock.coarseWallTime < published.freshUntil { return published }
    return try await refetch()
  }

  /// Fetches the document (joining a fetch in flight) and keeps it.
  private func refetch() async throws(AuthError) -> Published {
    let task: Task<Result<Published, AuthError>, Never>
    if let flight {
      task = flight
    } else {
      fetchCount += 1
      let (url, provider, transport, clock, policy) = (
        self.url, self.provider, self.transport, self.clock, self.policy
      )
      let previous = published
      task = Task {
        await Self.fetch(
          url, provider: provider, transport: transport, clock: clock, policy: policy,
          previous: previous)
      }
      flight = task
    }
    let result = await task.value
    if flight == task { flight = nil }
    switch result {
    case .success(let fresh):
      published = fresh
      return fresh
    case .failure(let error):
      if var published {
        // Serve what was published before, and try again after the retry interval.
        published.freshUntil = clock.coarseWallTime + policy.failureRetryInterval
        self.published = published
        return published
      }
      throw error
    }
  }

  /// One `GET` of the document: `issuer` a non-empty string, `jwks_uri` an https (or
  /// loopback http) URL. The key cache is kept when `jwks_uri` did not change.
  private static func fetch(
    _ url: URL, provider: ProviderID, transport: any HTTPTransport, clock: any AuthClock,
    policy: JWKSCache.Policy, previous: Published?
  ) async -> Result<Published, AuthError> {
    let name = "security event configuration"
    let fetched = await KeyDocumentFetch.get(
      url, transport: transport, policy: policy, endpoint: name, provider: provider,
      networkMessage: { "Fetching the \(name) failed: \($0)" })
    let response: TransportResponse
    switch fetched {
    case .success(let value): response = value
    case .failure(let error): return .failure(error)
    }
    func invalid(_ why: String) -> Result<Published, AuthError> {
      .failure(
        AuthError(
          .invalidResponse, "The \(name) at \(url.absoluteString) \(why).", provider: provider))
    }
    guard let document = try? JSONValue(parsing: Array(response.body)),
      case .object(let members) = document
    else {
      return invalid("is not a JSON object")
    }
    guard let issuer = members["issuer"]?.stringValue, !issuer.isEmpty, issuer.utf8.count <= 512
    else {
      return invalid("has no 'issuer'")
    }
    guard let text = members["jwks_uri"]?.stringValue, let keysURL = URL(string: text),
      keysURL.host != nil
    else {
      return invalid("has no 'jwks_uri' URL")
    }
    do throws(AuthError) {
      try keysURL.requireHTTPSOrLoopback("jwks_uri", provider: provider)
    } catch {
      return .failure(error)
    }
    let keys =
      previous.flatMap { $0.keysURL == keysURL ? $0.keys : nil }
      ?? JWKSCache(url: keysURL, transport: transport, clock: clock, policy: policy)
    return .success(
      Published(
        issuer: issuer, keysURL: keysURL, keys: keys,
        freshUntil: clock.coarseWallTime + policy.timeToLive(for: response.headers)))
  }

  /// Verifies a SET: RS256 with a key the published `jwks_uri` names by `kid` (never `none`
  /// or an HMAC), `typ` `secevent+jwt`, `iss` exactly the published issuer, `aud` one of
  /// ``Rules/audiences``, `iat` at most ``Rules/maximumAge`` old, a `jti` of 1 to 256
  /// bytes, an `events` object of event objects, and no `nonce`. `exp` is ignored: SETs are
  /// history (RFC 8417 §2.2).
  ///
  /// - Throws: ``EventRefusal`` or an ``AuthError/Code/invalidToken`` error for a token to
  ///   refuse (400); any other ``AuthError`` when the configuration or keys could not be
  ///   fetched (503).
  func verify(_ token: String, rules: Rules) async throws -> VerifiedSecurityEvent {
    guard let audience = rules.audiences.first else {
      throw EventRefusal(code: "invalid_audience", "No client id to accept SETs for.")
    }
    var current = try await current()
    let jws = try await verified(token, published: &current)
    if case .string(let type)? = jws.header["typ"] {
      // Without a required typ, the generic `JWT` passes too (Google's RISC samples).
      let accepted =
        rules.requiresType
        ? ["secevent+jwt", "application/secevent+jwt"]
        : ["secevent+jwt", "application/secevent+jwt", "jwt"]
      guard accepted.contains(type.lowercased()) else {
        throw EventRefusal(
          "The token's typ '\(ErrorText.excerpt(type, limit: 64))' is not secevent+jwt.")
      }
    } else if rules.requiresType {
      throw EventRefusal("The token's header has no typ secevent+jwt.")
    }
    var claims: [String: JSONValue]
    do throws(JOSEError) {
      claims = try JWSVerifier.claims(of: jws.payload)
    } catch {
      throw error.asAuthError
    }
    claims["exp"] = nil
    var expected = JWTClaimsPolicy(
      issuer: current.issuer, audience: audience, leeway: rules.leeway,
      requiredClaims: ["iss", "aud", "iat", "jti", "events"])
    expected.alternativeAudiences = Set(rules.audiences.dropFirst())
    expected.maximumTokenAge = rules.maximumAge
    try expected.check(.object(claims), algorithm: jws.algorithm, now: clock.coarseWallTime)
    guard claims["nonce"] == nil else {
      throw EventRefusal("A Security Event Token must not carry a nonce.")
    }
    guard case .object(let events)? = claims["events"], !events.isEmpty,
      events.values.allSatisfy({ $0.objectValue != nil })
    else {
      throw EventRefusal("The token's 'events' is not an object of event objects.")
    }
    guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= 256,
      let issuedAt = claims["iat"]?.doubleValue
    else {
      throw EventRefusal("The token's 'jti' is not a string of 1 to 256 bytes.")
    }
    return VerifiedSecurityEvent(
      issuer: current.issuer, tokenID: jti, claims: claims, events: events,
      keepUntil: Date(timeIntervalSince1970: issuedAt + rules.maximumAge + 2 * rules.leeway))
  }
}

/// A Security Event Token that verified: its claims and events, for the provider's mapping.
struct VerifiedSecurityEvent: Sendable {
  /// The published issuer it carried.
  var issuer: String
  /// Its `jti`.
  var tokenID: String
  /// Every claim (without `exp`).
  var claims: [String: JSONValue]
  /// `events`: event type URI → event object.
  var events: [String: JSONValue]
  /// Until when its `jti` must be kept: past this it would be refused as too old anyway.
  var keepUntil: Date
}
