import Foundation

/// A Graph API version with the day Facebook released it and the day it stops serving it
/// (Facebook's "Available Graph API versions" table, developers.facebook.com/docs/graph-api/
/// changelog/versions, read December 2026).
///
/// Facebook keeps each version about two years; a request to an expired version is served by
/// the oldest available one, which may answer differently. ``FacebookConfiguration`` checks the
/// configured ``FacebookConfiguration/graphAPIVersion`` against this table:
/// ``LoginClient`` logs a warning when it is within 90 days of its expiry, or past it.
///
/// ```swift
/// FacebookGraphAPIVersion.known.first { $0.version == "v21.0" }?.expires  // 2027-01-21
/// configuration.graphAPIVersionWarning(at: Date())  // nil, or the warning
/// ```
public struct FacebookGraphAPIVersion: Hashable, Sendable {
  /// `vMAJOR.MINOR`.
  public var version: String
  /// The release day (UTC).
  public var released: Date
  /// The last day Facebook serves it (UTC); `nil` while Facebook has not announced one.
  public var expires: Date?

  /// Creates an entry.
  public init(version: String, released: Date, expires: Date?) {
    self.version = version
    self.released = released
    self.expires = expires
  }

  /// The version ``FacebookConfiguration`` uses by default: the newest in ``known``.
  public static let current = "v26.0"

  /// How close to its expiry a configured version is logged as a warning: 90 days.
  public static let warningPeriod: TimeInterval = 90 * 86_400

  /// The versions of the last years, newest first.
  public static let known: [FacebookGraphAPIVersion] = [
    entry("v26.0", released: "2026-07-29", expires: nil),
    entry("v25.0", released: "2026-02-18", expires: "2028-07-29"),
    entry("v24.0", released: "2025-10-08", expires: "2028-02-18"),
    entry("v23.0", released: "2025-05-29", expires: "2027-10-08"),
    entry("v22.0", released: "2025-01-21", expires: "2027-05-20"),
    entry("v21.0", released: "2024-10-02", expires: "2027-01-21"),
    entry("v20.0", released: "2024-05-21", expires: "2026-09-24"),
    entry("v19.0", released: "2024-01-23", expires: "2026-05-21"),
    entry("v18.0", released: "2023-09-12", expires: "2026-01-26"),
    entry("v17.0", released: "2023-05-23", expires: "2025-09-12"),
    entry("v16.0", released: "2023-02-02", expires: "2025-05-14"),
    entry("v15.0", released: "2022-09-15", expires: "2024-11-20"),
    entry("v14.0", released: "2022-05-25", expires: "2024-09-17"),
    entry("v13.0", released: "2022-02-08", expires: "2024-05-28"),
    entry("v12.0", released: "2021-09-14", expires: "2024-02-08"),
  ]

  /// The table's entry for `version`, if any.
  public static func lookup(_ version: String) -> FacebookGraphAPIVersion? {
    known.first { $0.version == version }
  }

  /// What is wrong with using `version` at `now`: past or within ``warningPeriod`` of its
  /// expiry, or older than every version of the table (long expired); `nil` when nothing is
  /// (a version newer than the table is taken to be fine).
  public static func warning(for version: String, at now: Date) -> String? {
    let day = DateFormatter.graphDay
    if let entry = lookup(version) {
      guard let expires = entry.expires, expires.timeIntervalSince(now) <= warningPeriod else {
        return nil
      }
      if now >= expires {
        return "The Graph API version \(version) expired on \(day.string(from: expires)); "
          + "Facebook now answers with the oldest version it serves. Set "
          + "FacebookConfiguration.graphAPIVersion to \(current)."
      }
      let days = Int((expires.timeIntervalSince(now) / 86_400).rounded(.up))
      return "The Graph API version \(version) expires on \(day.string(from: expires)), in "
        + "\(days) days; move FacebookConfiguration.graphAPIVersion to \(current) and test it."
    }
    guard let major = majorVersion(version), let oldest = known.last,
      let oldestMajor = majorVersion(oldest.version), major < oldestMajor
    else { return nil }
    return "The Graph API version \(version) is older than \(oldest.version), which expired on "
      + "\(oldest.expires.map(day.string(from:)) ?? "-"); Facebook no longer serves it. Set "
      + "FacebookConfiguration.graphAPIVersion to \(current)."
  }

  private static func majorVersion(_ version: String) -> Int? {
    guard version.hasPrefix("v") else { return nil }
    return Int(version.dropFirst().prefix { $0 != "." })
  }

  private static func entry(_ version: String, released: String, expires: String?)
    -> FacebookGraphAPIVersion
  {
    let day = DateFormatter.graphDay
    return FacebookGraphAPIVersion(
      version: version, released: day.date(from: released) ?? .distantPast,
      expires: expires.flatMap(day.date(from:)))
  }
}

extension FacebookConfiguration {
  /// ``FacebookGraphAPIVersion/warning(for:at:)`` for ``graphAPIVersion``: what
  /// ``LoginClient`` logs as a warning when it is created.
  public func graphAPIVersionWarning(at now: Date) -> String? {
    FacebookGraphAPIVersion.warning(for: graphAPIVersion, at: now)
  }
}

extension DateFormatter {
  /// `yyyy-MM-dd` in UTC, for the Graph version table.
  fileprivate static var graphDay: DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter
  }
}

/// The warning ``LoginClient`` logs for each Facebook provider whose Graph API version is
/// expiring or expired.
enum GraphAPIVersionNotice {
  /// Logs ``FacebookConfiguration/graphAPIVersionWarning(at:)`` of every Facebook provider in
  /// `providers` as a warning.
  static func announce(_ providers: [any LoginProvider], logger: AuthLogger, now: Date) {
    guard logger.isEnabled(.warning) else { return }
    for case let facebook as FacebookProvider in providers {
      guard let warning = facebook.configuration.graphAPIVersionWarning(at: now) else { continue }
      logger.log(
        .warning, warning,
        metadata: [
          "provider": facebook.id.rawValue,
          "graph_api_version": facebook.configuration.graphAPIVersion,
        ])
    }
  }
}
