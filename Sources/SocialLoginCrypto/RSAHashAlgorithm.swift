/// The hash function named in an RSASSA-PKCS1-v1_5 signature's `DigestInfo` (RFC 8017 §9.2).
public enum RSAHashAlgorithm: Sendable, Equatable {
  /// SHA-256 (JWS `RS256`).
  case sha256
  /// SHA-384 (JWS `RS384`).
  case sha384
  /// SHA-512 (JWS `RS512`).
  case sha512

  /// Length in bytes of the digest this algorithm produces.
  public var digestByteCount: Int {
    switch self {
    case .sha256: 32
    case .sha384: 48
    case .sha512: 64
    }
  }

  /// DER encoding of `DigestInfo` up to the digest bytes: `AlgorithmIdentifier` with explicit
  /// `NULL` parameters, then the `OCTET STRING` header (RFC 8017 §9.2, note 1).
  var digestInfoPrefix: [UInt8] {
    switch self {
    case .sha256:
      [
        0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01,
        0x05, 0x00, 0x04, 0x20,
      ]
    case .sha384:
      [
        0x30, 0x41, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02,
        0x05, 0x00, 0x04, 0x30,
      ]
    case .sha512:
      [
        0x30, 0x51, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03,
        0x05, 0x00, 0x04, 0x40,
      ]
    }
  }
}
