import Foundation

/// An ``AuthObserver`` that aggregates events into counters, gauges and histograms, and renders
/// them in the Prometheus text exposition format (``prometheusText()``), for a service's
/// `/metrics` endpoint.
///
/// Names start with `sociallogin_`, durations are in seconds, counters end in `_total`, and
/// every label value is bounded: a provider id, an outcome, a sign-out reason or an error code,
/// never a user.
///
/// | Metric | Type | Labels |
/// |---|---|---|
/// | `sociallogin_logins_total` | counter | `provider`, `outcome` (`succeeded`/`failed`), `code` |
/// | `sociallogin_login_duration_seconds` | histogram | `provider` |
/// | `sociallogin_refreshes_total` | counter | `provider`, `outcome` (`refreshed`, `adopted`, `joined`, `degraded`, `signed_out`) |
/// | `sociallogin_refresh_duration_seconds` | histogram | `provider` |
/// | `sociallogin_sign_outs_total` | counter | `provider`, `reason` |
/// | `sociallogin_degradations_total` | counter | `provider`, `code` |
/// | `sociallogin_sessions_degraded` | gauge | `provider` |
/// | `sociallogin_logins_started_total` | counter | `provider` |
/// | `sociallogin_refresh_lease_wait_seconds` | histogram | `provider` |
/// | `sociallogin_store_errors_total` | counter | `operation`, `code` |
/// | `sociallogin_verifications_total` | counter | `provider`, `token`, `outcome` (`accepted`/`rejected`), `code` |
/// | `sociallogin_verification_duration_seconds` | histogram | `provider` |
/// | `sociallogin_key_set_fetches_total` | counter | `provider`, `outcome` (`fetched`/`failed`), `code` |
/// | `sociallogin_key_set_fetch_duration_seconds` | histogram | `provider` |
/// | `sociallogin_provider_events_total` | counter | `provider`, `kind`, `outcome` (``ProviderEventOutcome``) |
///
/// ```swift
/// let metrics = MetricsRecorder()
/// let client = try LoginClient(providers: providers, store: store, observer: metrics)
/// // GET /metrics
/// response.body = metrics.prometheusText()
/// ```
public final class MetricsRecorder: AuthObserver {
  /// The upper bounds (seconds) of the duration histograms' buckets.
  public static let durationBuckets: [Double] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
  ]

  private struct Histogram {
    var counts = [UInt64](repeating: 0, count: MetricsRecorder.durationBuckets.count)
    var sum = 0.0
    var count: UInt64 = 0

    mutating func observe(_ seconds: Double) {
      for (index, bound) in MetricsRecorder.durationBuckets.enumerated() where seconds <= bound {
        counts[index] += 1
      }
      sum += seconds
      count += 1
    }
  }

  /// Labels in the order they are rendered.
  private typealias Labels = [(String, String)]

  private struct Key: Hashable {
    var name: String
    var labels: [String]
  }

  private struct State {
    var counters: [Key: UInt64] = [:]
    var gauges: [Key: Int64] = [:]
    var histograms: [Key: Histogram] = [:]
    var labelNames: [String: [String]] = [:]
    /// Callers that joined a refresh in flight, by provider.
    var joins: [ProviderID: UInt64] = [:]
  }

  private let state = Locked(State())

  /// The `Content-Type` of ``prometheusText()``, for the `/metrics` response.
  public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  /// An empty recorder.
  public init() {}

  /// Takes one event into the metrics.
  public func observe(_ event: AuthEvent) {
    state.withLock { state in
      switch event {
      case .loginStarted(let provider):
        Self.count(&state, "sociallogin_logins_started_total", [("provider", provider.rawValue)])
      case .loginSucceeded(let provider, let duration):
        Self.count(
          &state, "sociallogin_logins_total",
          [("provider", provider.rawValue), ("outcome", "succeeded"), ("code", "")])
        Self.time(&state, "sociallogin_login_duration_seconds", provider, duration)
      case .loginFailed(let provider, let duration, let code):
        Self.count(
          &state, "sociallogin_logins_total",
          [("provider", provider.rawValue), ("outcome", "failed"), ("code", code.rawValue)])
        Self.time(&state, "sociallogin_login_duration_seconds", provider, duration)
      case .refreshed(let provider, let outcome, let duration, let leaseWait):
        Self.count(
          &state, "sociallogin_refreshes_total",
          [("provider", provider.rawValue), ("outcome", outcome.rawValue)])
        Self.time(&state, "sociallogin_refresh_duration_seconds", provider, duration)
        Self.time(&state, "sociallogin_refresh_lease_wait_seconds", provider, leaseWait)
      case .refreshJoined(let provider):
        // One per caller that joins a flight (10,000 on a busy session): counted without
        // building labels, folded into `sociallogin_refreshes_total` when rendered.
        state.joins[provider, default: 0] += 1
      case .signedOut(let provider, let reason):
        Self.count(
          &state, "sociallogin_sign_outs_total",
          [("provider", provider.rawValue), ("reason", reason.label)])
      case .degraded(let provider, let code):
        Self.count(
          &state, "sociallogin_degradations_total",
          [("provider", provider.rawValue), ("code", code.rawValue)])
        Self.gauge(&state, "sociallogin_sessions_degraded", provider, by: 1)
      case .degradationEnded(let provider):
        Self.gauge(&state, "sociallogin_sessions_degraded", provider, by: -1)
      case .storeFailed(let operation, _, let code):
        Self.count(
          &state, "sociallogin_store_errors_total",
          [("operation", operation.rawValue), ("code", code.rawValue)])
      case .verified(let provider, let token, let duration):
        Self.count(
          &state, "sociallogin_verifications_total",
          [
            ("provider", provider.rawValue), ("token", token.rawValue),
            ("outcome", "accepted"), ("code", ""),
          ])
        Self.time(&state, "sociallogin_verification_duration_seconds", provider, duration)
      case .verificationFailed(let provider, let token, let duration, let code):
        Self.count(
          &state, "sociallogin_verifications_total",
          [
            ("provider", provider.rawValue), ("token", token.rawValue),
            ("outcome", "rejected"), ("code", code.rawValue),
          ])
        Self.time(&state, "sociallogin_verification_duration_seconds", provider, duration)
      case .keySetFetched(let provider, let duration):
        Self.count(
          &state, "sociallogin_key_set_fetches_total",
          [("provider", provider.rawValue), ("outcome", "fetched"), ("code", "")])
        Self.time(&state, "sociallogin_key_set_fetch_duration_seconds", provider, duration)
      case .keySetFetchFailed(let provider, let duration, let code):
        Self.count(
          &state, "sociallogin_key_set_fetches_total",
          [("provider", provider.rawValue), ("outcome", "failed"), ("code", code.rawValue)])
        Self.time(&state, "sociallogin_key_set_fetch_duration_seconds", provider, duration)
      case .providerEvent(let provider, let kind, let outcome):
        Self.count(
          &state, "sociallogin_provider_events_total",
          [("provider", provider.rawValue), ("kind", kind.rawValue), ("outcome", outcome.rawValue)])
      }
    }
  }

  private static func key(_ state: inout State, _ name: String, _ labels: Labels) -> Key {
    if state.labelNames[name] == nil { state.labelNames[name] = labels.map(\.0) }
    return Key(name: name, labels: labels.map(\.1))
  }

  private static func count(_ state: inout State, _ name: String, _ labels: Labels) {
    state.counters[key(&state, name, labels), default: 0] += 1
  }

  private static func gauge(
    _ state: inout State, _ name: String, _ provider: ProviderID, by delta: Int64
  ) {
    state.gauges[key(&state, name, [("provider", provider.rawValue)]), default: 0] += delta
  }

  private static func time(
    _ state: inout State, _ name: String, _ provider: ProviderID, _ duration: Duration
  ) {
    state.histograms[key(&state, name, [("provider", provider.rawValue)]), default: Histogram()]
      .observe(duration.timeInterval)
  }

  private static let help: [String: String] = [
    "sociallogin_logins_started_total":
      "Logins started (authorization pages shown or web logins begun).",
    "sociallogin_refresh_lease_wait_seconds":
      "Time a refresh waited for the store's refresh lease.",
    "sociallogin_store_errors_total":
      "Session store operations that failed, by operation and error code.",
    "sociallogin_verifications_total":
      "Tokens from clients verified, by provider, token kind and outcome.",
    "sociallogin_verification_duration_seconds": "Time to verify a token from a client.",
    "sociallogin_key_set_fetches_total": "Fetches of providers' signing keys, by outcome.",
    "sociallogin_key_set_fetch_duration_seconds": "Time to fetch a provider's signing keys.",
    "sociallogin_logins_total": "Logins that ended, by provider, outcome and error code.",
    "sociallogin_login_duration_seconds": "Time from a login's callback to its session.",
    "sociallogin_refreshes_total": "Token refreshes by provider and outcome.",
    "sociallogin_refresh_duration_seconds": "Time from a refresh's start to its answer.",
    "sociallogin_sign_outs_total": "Sessions signed out, by provider and reason.",
    "sociallogin_degradations_total": "Healthy sessions that became degraded, by error code.",
    "sociallogin_sessions_degraded": "Sessions degraded now (transient failures, tokens kept).",
    "sociallogin_provider_events_total":
      "Events providers pushed (logouts, revocations, deletions), by provider, kind and outcome.",
  ]

  /// Everything recorded so far, in the Prometheus text exposition format (version 0.0.4),
  /// metric families sorted by name and series by labels, so that equal metrics render
  /// equally.
  public func prometheusText() -> String {
    var snapshot = state.withLock { $0 }
    for (provider, count) in snapshot.joins {
      let key = Self.key(
        &snapshot, "sociallogin_refreshes_total",
        [("provider", provider.rawValue), ("outcome", "joined")])
      snapshot.counters[key, default: 0] += count
    }
    var lines: [String] = []
    func header(_ name: String, _ type: String) {
      lines.append("# HELP \(name) \(Self.help[name] ?? name)")
      lines.append("# TYPE \(name) \(type)")
    }
    func labels(_ name: String, _ values: [String], extra: (String, String)? = nil) -> String {
      var pairs = zip(snapshot.labelNames[name] ?? [], values).map { ($0, $1) }
      if let extra { pairs.append(extra) }
      guard !pairs.isEmpty else { return "" }
      return "{" + pairs.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
    }
    for name in Set(snapshot.counters.keys.map(\.name)).sorted() {
      header(name, "counter")
      for (key, value) in snapshot.counters.filter({ $0.key.name == name })
        .sorted(by: { $0.key.labels.lexicographicallyPrecedes($1.key.labels) })
      {
        lines.append("\(name)\(labels(name, key.labels)) \(value)")
      }
    }
    for name in Set(snapshot.gauges.keys.map(\.name)).sorted() {
      header(name, "gauge")
      for (key, value) in snapshot.gauges.filter({ $0.key.name == name })
        .sorted(by: { $0.key.labels.lexicographicallyPrecedes($1.key.labels) })
      {
        lines.append("\(name)\(labels(name, key.labels)) \(max(0, value))")
      }
    }
    for name in Set(snapshot.histograms.keys.map(\.name)).sorted() {
      header(name, "histogram")
      for (key, histogram) in snapshot.histograms.filter({ $0.key.name == name })
        .sorted(by: { $0.key.labels.lexicographicallyPrecedes($1.key.labels) })
      {
        for (bound, count) in zip(Self.durationBuckets, histogram.counts) {
          lines.append(
            "\(name)_bucket\(labels(name, key.labels, extra: ("le", Self.number(bound)))) \(count)"
          )
        }
        lines.append(
          "\(name)_bucket\(labels(name, key.labels, extra: ("le", "+Inf"))) \(histogram.count)")
        lines.append("\(name)_sum\(labels(name, key.labels)) \(Self.number(histogram.sum))")
        lines.append("\(name)_count\(labels(name, key.labels)) \(histogram.count)")
      }
    }
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  /// A label value escaped as the exposition format requires (`\`, `"`, newline).
  static func escape(_ value: String) -> String {
    var escaped = ""
    for character in value {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// A sample value: integers without a fraction, others as Swift prints a `Double`.
  static func number(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}
