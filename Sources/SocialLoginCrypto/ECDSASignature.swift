/// An ECDSA P-256 signature `(r, s)`, as produced by ``P256PrivateKey``.
///
/// JWS `ES256` uses ``rawRepresentation`` (`r || s`, 64 bytes, RFC 7518 §3.4); X.509, TLS and
/// most non-JOSE protocols use ``derRepresentation``.
///
/// ```swift
/// let signature = privateKey.signature(for: Array(signingInput.utf8))
/// let jwsSignature = Base64URL.encode(signature.rawRepresentation)
/// ```
public struct ECDSASignature: Sendable, Hashable {
  /// `r`, 32 big-endian bytes.
  public let r: [UInt8]
  /// `s`, 32 big-endian bytes.
  public let s: [UInt8]

  init(r: U256, s: U256) {
    self.r = r.bigEndianBytes
    self.s = s.bigEndianBytes
  }

  /// `r || s`, 64 bytes: the JWS `ES256` signature format (IEEE P1363).
  public var rawRepresentation: [UInt8] { r + s }

  /// DER `SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279), the minimal encoding.
  public var derRepresentation: [UInt8] {
    let body = Self.derInteger(r) + Self.derInteger(s)
    return [0x30, UInt8(body.count)] + body  // at most 70 bytes: short-form length
  }

  private static func derInteger(_ value: [UInt8]) -> [UInt8] {
    var content = Array(value.drop { $0 == 0 })
    if content.isEmpty { content = [0] }
    if content[0] & 0x80 != 0 { content.insert(0, at: 0) }
    return [0x02, UInt8(content.count)] + content
  }
}
