/// What ``SealingKeyRing/open(_:context:)`` recovered, and whether it should be written again.
///
/// Key rotation is lazy: a record sealed with an older key still opens, and ``needsReseal``
/// tells the store to seal it with the current key on its next write, so old keys can be
/// retired once every record has been rewritten.
public struct SealedPlaintext: Sendable {
  /// The plaintext.
  public var bytes: [UInt8]
  /// The id of the key the value was sealed with (empty for a ``RecordSealing/unsealed``
  /// read, which involves no key).
  public var keyID: String
  /// Whether the value was sealed with a key other than the ring's sealing key, so rewriting
  /// it moves it to the current key.
  public var needsReseal: Bool
}
