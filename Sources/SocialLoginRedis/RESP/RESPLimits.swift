/// How large and deep a reply may be before it is refused as hostile or broken.
///
/// A reply header announces its size (`$1000000000`) before any of it arrives; without a bound a
/// compromised or buggy server (or anything that answers on the port) could make the client
/// allocate without limit or recurse until the stack overflows. Replies beyond these limits fail
/// with ``RedisError/Kind/replyTooLarge`` or ``RedisError/Kind/protocolViolation`` and the
/// connection is dropped.
public struct RESPLimits: Hashable, Sendable {
  /// The largest bulk string accepted, in bytes. Default 8 MiB (sessions are a few KiB).
  public var maximumBulkLength: Int
  /// The most elements one array, set, map or push may announce. Default 1,048,576.
  public var maximumElementCount: Int
  /// The deepest nesting of aggregates accepted; an attribute (`|`) in front of a reply counts
  /// as one level. Default 16.
  public var maximumDepth: Int
  /// The longest simple line (`+`, `-`, `:` and headers). Default 64 KiB.
  public var maximumLineLength: Int
  /// The most bytes one reply may span, counted while it is still arriving, so the bytes
  /// buffered for a reply stay bounded however its elements are sized. Default 64 MiB.
  public var maximumReplyLength: Int

  /// Creates limits; the defaults fit every reply this package asks for.
  ///
  /// ```swift
  /// var configuration = try RedisConfiguration(url: "redis://127.0.0.1:6379")
  /// configuration.limits = RESPLimits(maximumReplyLength: 16 << 20)
  /// ```
  public init(
    maximumBulkLength: Int = 8 << 20, maximumElementCount: Int = 1 << 20,
    maximumDepth: Int = 16, maximumLineLength: Int = 64 << 10,
    maximumReplyLength: Int = 64 << 20
  ) {
    self.maximumBulkLength = maximumBulkLength
    self.maximumElementCount = maximumElementCount
    self.maximumDepth = maximumDepth
    self.maximumLineLength = maximumLineLength
    self.maximumReplyLength = maximumReplyLength
  }

  /// The default limits.
  public static let `default` = RESPLimits()
}
