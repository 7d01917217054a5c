/// How important a log record is.
public enum AuthLogLevel: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
  /// Step-by-step detail for debugging.
  case trace
  /// Useful detail: requests sent, refreshes started.
  case debug
  /// Normal events: sign-in, refresh, sign-out.
  case info
  /// Something went wrong but the SDK recovered (a transient refresh failure).
  case warning
  /// Something failed (a terminal refresh failure, a store write failure).
  case error

  /// Orders by severity.
  public static func < (lhs: AuthLogLevel, rhs: AuthLogLevel) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// The level's name.
  public var description: String {
    switch self {
    case .trace: return "trace"
    case .debug: return "debug"
    case .info: return "info"
    case .warning: return "warning"
    case .error: return "error"
    }
  }
}

/// One log record, already redacted: no token or secret ever reaches a handler.
public struct AuthLogRecord: Sendable {
  /// The severity.
  public var level: AuthLogLevel
  /// The message.
  public var message: String
  /// Structured metadata (`provider`, `session`, `status`, ...).
  public var metadata: [String: String]
  /// The source file that logged it.
  public var file: String
  /// The line that logged it.
  public var line: UInt

  /// Creates a record.
  public init(
    level: AuthLogLevel, message: String, metadata: [String: String], file: String, line: UInt
  ) {
    self.level = level
    self.message = message
    self.metadata = metadata
    self.file = file
    self.line = line
  }
}

/// Where the SDK's log records go. Silent by default.
///
/// An adapter to swift-log is a few lines in your code:
///
/// ```swift
/// import Logging
/// let swiftLog = Logger(label: "sociallogin")
/// let logger = AuthLogger(minimumLevel: .info) { record in
///   swiftLog.log(level: .init(record.level), "\(record.message)",
///                metadata: record.metadata.mapValues { .string($0) })
/// }
/// ```
public struct AuthLogger: Sendable {
  /// Records below this level are dropped before any work is done.
  public var minimumLevel: AuthLogLevel
  private let handler: (@Sendable (AuthLogRecord) -> Void)?

  /// Creates a logger that passes redacted records at or above `minimumLevel` to `handler`.
  public init(
    minimumLevel: AuthLogLevel = .info, handler: @escaping @Sendable (AuthLogRecord) -> Void
  ) {
    self.minimumLevel = minimumLevel
    self.handler = handler
  }

  private init() {
    minimumLevel = .error
    handler = nil
  }

  /// A logger that emits nothing: the default everywhere.
  public static let silent = AuthLogger()

  /// Whether a record of `level` would reach a handler.
  func isEnabled(_ level: AuthLogLevel) -> Bool { handler != nil && level >= minimumLevel }

  /// Logs `message` with `metadata`, after redacting anything that looks like a secret.
  public func log(
    _ level: AuthLogLevel,
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> [String: String] = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    guard let handler, level >= minimumLevel else { return }
    let record = AuthLogRecord(
      level: level,
      message: Redaction.scrub(message()),
      metadata: Redaction.scrub(metadata: metadata()),
      file: file,
      line: line)
    handler(record)
  }
}
