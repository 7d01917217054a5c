/// Why a sealed record could not be opened, or why a sealing key or key file was refused.
///
/// Each kind calls for a different response: ``Kind-swift.enum/sealedWithUnknownKey`` means
/// "install the missing key" (the data is fine), ``Kind-swift.enum/tampered`` and
/// ``Kind-swift.enum/notSealed`` mean the stored bytes are not what this store wrote, and the
/// key errors are configuration mistakes. ``message`` never contains key material or
/// plaintext, so it is safe to log.
public struct SealingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The reasons sealing, opening or loading keys can fail.
  public enum Kind: Sendable, Equatable {
    /// The value was sealed with a key this ring does not hold (see ``SealingError/keyID``):
    /// typically a key retired too early, or a replica started without the newest key file.
    case sealedWithUnknownKey
    /// The value has the sealed header but fails authentication: modified, truncated, sealed
    /// for another record (context), or its header is garbled.
    case tampered
    /// The value does not start with the sealed magic: plaintext where sealed data was
    /// expected (for example a record written before sealing was turned on).
    case notSealed
    /// A key's id or secret is malformed.
    case invalidKey
    /// A key file (or a list of keys) is malformed, unsafe to use (readable by others) or
    /// unreadable; the message names the line.
    case invalidKeyFile
  }

  /// Which check failed.
  public let kind: Kind
  /// The id named in the sealed header, for ``Kind-swift.enum/sealedWithUnknownKey``; `nil`
  /// otherwise.
  public let keyID: String?
  /// A readable explanation; never contains key material or plaintext.
  public let message: String
  /// The ``message``.
  public var description: String { message }

  init(_ kind: Kind, _ message: String, keyID: String? = nil) {
    self.kind = kind
    self.message = message
    self.keyID = keyID
  }
}
