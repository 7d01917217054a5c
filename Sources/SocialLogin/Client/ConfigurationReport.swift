/// What ``LoginClient/configurationReport()`` found for each provider: the provider accepted
/// its credentials, could not check them, or the check failed.
///
/// ```swift
/// let report = await client.configurationReport()
/// for (provider, check) in report.checks { print(provider, check) }
/// if let failure = report.rejected.first { throw failure }
/// ```
public struct ConfigurationReport: Sendable {
  /// Each registered provider's check, by id.
  public var checks: [ProviderID: ConfigurationCheck]

  /// Creates a report.
  public init(checks: [ProviderID: ConfigurationCheck]) { self.checks = checks }

  /// The providers that accepted their credentials.
  public var accepted: [ProviderID] {
    checks.filter { if case .ok = $0.value { return true } else { return false } }.keys.sorted {
      $0.rawValue < $1.rawValue
    }
  }

  /// The failures that are the app's own fault: every failed check that is not transient
  /// (wrong or unusable credentials), ordered by provider id.
  public var rejected: [AuthError] {
    failures.filter { !$0.isTransient }
  }

  /// The failures that say nothing about the credentials: the provider could not be asked
  /// (network, timeout, 5xx, 429), ordered by provider id.
  public var unreachable: [AuthError] {
    failures.filter(\.isTransient)
  }

  private var failures: [AuthError] {
    checks.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap(\.value.error)
  }
}
