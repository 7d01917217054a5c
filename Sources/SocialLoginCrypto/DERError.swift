/// Why ``DERReader`` (and so ``X509Certificate``) refused its input: each way of not being
/// the one valid DER encoding (ITU-T X.690 §10) has its own case.
public enum DERError: Error, Equatable, Sendable {
  /// The input ends inside a tag, a length or the contents.
  case truncated
  /// An indefinite length (`0x80`): BER, not DER.
  case indefiniteLength
  /// A long-form length that a shorter form could express (or with a leading zero byte).
  case nonMinimalLength
  /// A length of more than four bytes: nothing in a certificate is that large.
  case lengthTooLarge
  /// A high-tag-number form (`0x1F` low bits), which nothing parsed here uses.
  case highTagNumber
  /// A different element was expected here.
  case unexpectedTag(expected: UInt8, found: UInt8)
  /// Bytes follow the last element of a structure (or of the whole input).
  case trailingBytes(count: Int)
  /// An `INTEGER` that is empty or has a superfluous leading `0x00`/`0xFF` byte.
  case nonMinimalInteger
  /// An `INTEGER` that must be positive is zero or negative.
  case nonPositiveInteger
  /// A `BIT STRING` that is empty or has unused bits where whole bytes are required.
  case invalidBitString
  /// A `NULL` with contents, or a `BOOLEAN`/`OBJECT IDENTIFIER` that is not canonical.
  case invalidPrimitive
  /// A `UTCTime`/`GeneralizedTime` that is not `YYMMDDHHMMSSZ`/`YYYYMMDDHHMMSSZ` or names no
  /// real instant.
  case invalidTime
}
