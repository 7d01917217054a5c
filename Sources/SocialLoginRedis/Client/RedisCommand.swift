/// One command and its arguments, as binary-safe byte strings.
///
/// ```swift
/// let reply = try await client.send(["SET", "greeting", "hello", "PX", "5000"])
/// let raw = RedisCommand(arguments: [Array("SET".utf8), Array("blob".utf8), payloadBytes])
/// ```
public struct RedisCommand: Hashable, Sendable, ExpressibleByArrayLiteral {
  /// The command name first, then its arguments.
  public var arguments: [[UInt8]]

  /// Creates a command from byte strings.
  public init(arguments: [[UInt8]]) {
    self.arguments = arguments
  }

  /// Creates a command from text arguments (encoded as UTF-8).
  public init(_ arguments: [String]) {
    self.arguments = arguments.map { Array($0.utf8) }
  }

  /// Creates a command from a literal list of text arguments.
  public init(arrayLiteral elements: String...) {
    self.init(elements)
  }

  /// The command name, upper-cased, for error messages (never an argument: they may be
  /// secrets).
  var name: String { String(decoding: arguments.first ?? [], as: UTF8.self).uppercased() }
}
