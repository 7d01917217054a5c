import Foundation
import SocialLogin

/// A misbehaviour injected into the emulator for the next ``count`` matching requests (or
/// until cleared): what real providers do on bad days, so tests can check how sessions degrade.
///
/// Any subset of the fields may be set; a fault with only ``latencyMilliseconds`` delays and
/// then answers normally. Over HTTP it is the JSON body of `POST /_emulator/faults`:
/// `{"provider":"twitter","endpoint":"token","status":503,"latency_ms":2000,"body":"html",
/// "drop":true,"count":1}`.
///
/// ```swift
/// emulator.inject(EmulatorFault(provider: .twitter, endpoint: "token", status: 429, count: 1))
/// emulator.inject(EmulatorFault(provider: .line, endpoint: "token", refreshToken: .revoked))
/// ```
public struct EmulatorFault: Sendable, Hashable, Codable {
  /// A broken response body.
  public enum Body: String, Sendable, Hashable, Codable {
    /// An HTML error page (what a proxy or load balancer sends).
    case html
    /// The real body cut in half.
    case truncated
    /// Bytes that are not JSON at all.
    case malformed
  }

  /// Why the token endpoint refuses a refresh token.
  public enum RefreshTokenFault: String, Sendable, Hashable, Codable {
    /// Revoked by the user or the provider.
    case revoked
    /// Past its lifetime.
    case expired
  }

  /// The provider it applies to; `nil` for all.
  public var provider: ProviderID?
  /// The endpoint it applies to, by the CLI's `--endpoint` names (`token`, `users_me`,
  /// `debug_token`, ...); `nil` for all of the provider's endpoints.
  public var endpoint: String?
  /// Answer with this status and the provider's own error body for it. 429 carries
  /// `Retry-After` (or, for X, `x-rate-limit-reset`).
  public var status: Int?
  /// `Retry-After` seconds to send with ``status`` (default 30 for 429 and 503).
  public var retryAfterSeconds: Int?
  /// Seconds from now for X's `x-rate-limit-reset` (default 60 for an X 429).
  public var rateLimitResetSeconds: Int?
  /// Wait this long (real time) before answering. A client that closes its connection
  /// meanwhile gets nothing done: the request is dropped unspent (transcript status 0), so a
  /// refresh token it carried still works.
  public var latencyMilliseconds: Int?
  /// Break the body.
  public var body: Body?
  /// Close the connection without answering.
  public var drop: Bool?
  /// Send a `Date` header this many seconds off the emulator's clock.
  public var dateSkewSeconds: Int?
  /// Refuse refresh grants on the token endpoint the way the provider refuses a dead token.
  public var refreshToken: RefreshTokenFault?
  /// Answer token and identity calls with the provider's "account disabled" error.
  public var accountDisabled: Bool?
  /// How many matching requests it affects; `nil` until cleared.
  public var count: Int?
  /// With ``status``: the provider's own problem to answer with, where the provider has
  /// several for one status (X: `usage-capped` with 429, `client-not-enrolled` with 403 or
  /// 429).
  public var problem: String?

  /// Creates a fault.
  public init(
    provider: ProviderID? = nil, endpoint: String? = nil, status: Int? = nil,
    retryAfterSeconds: Int? = nil, rateLimitResetSeconds: Int? = nil,
    latencyMilliseconds: Int? = nil, body: Body? = nil, drop: Bool? = nil,
    dateSkewSeconds: Int? = nil, refreshToken: RefreshTokenFault? = nil,
    accountDisabled: Bool? = nil, count: Int? = nil, problem: String? = nil
  ) {
    self.problem = problem
    self.provider = provider
    self.endpoint = endpoint
    self.status = status
    self.retryAfterSeconds = retryAfterSeconds
    self.rateLimitResetSeconds = rateLimitResetSeconds
    self.latencyMilliseconds = latencyMilliseconds
    self.body = body
    self.drop = drop
    self.dateSkewSeconds = dateSkewSeconds
    self.refreshToken = refreshToken
    self.accountDisabled = accountDisabled
    self.count = count
  }

  enum CodingKeys: String, CodingKey {
    case provider, endpoint, status, body, drop, count, problem
    case retryAfterSeconds = "retry_after"
    case rateLimitResetSeconds = "rate_limit_reset"
    case latencyMilliseconds = "latency_ms"
    case dateSkewSeconds = "date_skew"
    case refreshToken = "refresh_token"
    case accountDisabled = "account_disabled"
  }

  /// Whether the fault applies to a request for `endpoint` of `provider`.
  func matches(provider name: ProviderID, endpoint: String, grantType: String?) -> Bool {
    if let provider, provider != name { return false }
    if let wanted = self.endpoint, wanted != endpoint { return false }
    if refreshToken != nil, grantType != "refresh_token" { return false }
    return true
  }

  /// A fault that changes nothing is refused: it would silently count down.
  var isEffective: Bool {
    status != nil || latencyMilliseconds != nil || body != nil || drop == true
      || dateSkewSeconds != nil || refreshToken != nil || accountDisabled == true
  }

  /// A short label for transcripts: `status=429`, `drop`, `body=html`.
  var label: String {
    var parts: [String] = []
    if let status { parts.append("status=\(status)") }
    if let problem { parts.append("problem=\(problem.prefix(40))") }
    if let latencyMilliseconds { parts.append("latency_ms=\(latencyMilliseconds)") }
    if let body { parts.append("body=\(body.rawValue)") }
    if drop == true { parts.append("drop") }
    if let dateSkewSeconds { parts.append("date_skew=\(dateSkewSeconds)") }
    if let refreshToken { parts.append("refresh_token=\(refreshToken.rawValue)") }
    if accountDisabled == true { parts.append("account_disabled") }
    return parts.joined(separator: ",")
  }
}
