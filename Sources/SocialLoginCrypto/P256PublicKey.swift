/// A NIST P-256 (secp256r1) public key that verifies ECDSA signatures, as used by JWS `ES256`.
///
/// Verification only (``P256PrivateKey`` signs). Because it processes only public data (key,
/// signature, digest), its arithmetic is variable time (binary branching on special cases,
/// Fermat inversion, wNAF recoding); nothing secret is involved.
///
/// ```swift
/// let key = try P256PublicKey(x: xBytes, y: yBytes)
/// let ok = key.isValidSignature(rawRS: jwsSignature, digest: SHA256.hash(signingInput))
/// ```
public struct P256PublicKey: Sendable {
  /// The point in Montgomery-form affine coordinates.
  let point: P256AffinePoint

  /// Creates a key from its affine coordinates, each exactly 32 big-endian bytes (as in a JWK's
  /// `x` and `y`, RFC 7518 §6.2.1).
  ///
  /// - Throws: ``P256KeyError/invalidEncoding`` unless both are 32 bytes,
  ///   ``P256KeyError/coordinateOutOfRange`` if one is not smaller than `p`, and
  ///   ``P256KeyError/pointNotOnCurve`` if the point is not on the curve. The point at infinity
  ///   has no affine coordinates and is therefore never accepted.
  public init(x: [UInt8], y: [UInt8]) throws(P256KeyError) {
    guard x.count == 32, y.count == 32 else { throw .invalidEncoding }
    try self.init(x: U256(bigEndian: x, from: 0), y: U256(bigEndian: y, from: 0))
  }

  /// Creates a key from its uncompressed ANSI X9.63 encoding, `0x04 || X || Y` (65 bytes).
  ///
  /// - Throws: ``P256KeyError/invalidEncoding`` for any other length or first byte (compressed
  ///   points and the encoding of the point at infinity included), otherwise as
  ///   ``init(x:y:)``.
  public init(x963Representation bytes: [UInt8]) throws(P256KeyError) {
    guard bytes.count == 65, bytes[0] == 0x04 else { throw .invalidEncoding }
    try self.init(x: U256(bigEndian: bytes, from: 1), y: U256(bigEndian: bytes, from: 33))
  }

  /// A key from a point already known to be on the curve (derived from a private key).
  init(point: P256AffinePoint) {
    self.point = point
  }

  /// The affine `x` coordinate, 32 big-endian bytes (a JWK's `x`).
  public var x: [UInt8] { P256Field.fromMontgomery(point.x).bigEndianBytes }

  /// The affine `y` coordinate, 32 big-endian bytes (a JWK's `y`).
  public var y: [UInt8] { P256Field.fromMontgomery(point.y).bigEndianBytes }

  /// The uncompressed ANSI X9.63 encoding, `0x04 || X || Y` (65 bytes).
  public var x963Representation: [UInt8] { [0x04] + x + y }

  private init(x: U256, y: U256) throws(P256KeyError) {
    guard x.isLess(than: P256Field.prime), y.isLess(than: P256Field.prime) else {
      throw .coordinateOutOfRange
    }
    guard P256Curve.isOnCurve(x: x, y: y) else { throw .pointNotOnCurve }
    point = P256AffinePoint(x: P256Field.toMontgomery(x), y: P256Field.toMontgomery(y))
  }

  /// Returns whether `rawRS`, the 64-byte concatenation `r || s` (IEEE P1363, the JWS `ES256`
  /// signature format, RFC 7518 §3.4), is a valid ECDSA signature of `digest`.
  ///
  /// `r` and `s` must both lie in `[1, n-1]`. `digest` is the message hash (SHA-256 for
  /// `ES256`); per ECDSA its leftmost 256 bits are used and reduced modulo `n`.
  public func isValidSignature(rawRS: [UInt8], digest: [UInt8]) -> Bool {
    guard rawRS.count == 64 else { return false }
    return verify(r: U256(bigEndian: rawRS, from: 0), s: U256(bigEndian: rawRS, from: 32), digest)
  }

  /// Returns whether `derEncoded`, a DER `SEQUENCE { r INTEGER, s INTEGER }` (X.509/TLS
  /// style), is a valid ECDSA signature of `digest`.
  ///
  /// The DER must be strict: minimal lengths, no trailing bytes, non-negative integers without
  /// a superfluous leading zero byte. Otherwise as ``isValidSignature(rawRS:digest:)``.
  public func isValidSignature(derEncoded: [UInt8], digest: [UInt8]) -> Bool {
    guard let (r, s) = ECDSASignatureDER.decode(derEncoded) else { return false }
    return verify(r: U256(bigEndian: r, from: 0), s: U256(bigEndian: s, from: 0), digest)
  }

  private func verify(r: U256, s: U256, _ digest: [UInt8]) -> Bool {
    let order = P256Scalar.order
    guard !r.isZero, !s.isZero, r.isLess(than: order), s.isLess(than: order) else {
      return false
    }
    return P256Curve.verify(r: r, s: s, e: Self.digestInteger(digest), publicKey: point)
  }

  /// The leftmost `min(256, 8 * digest.count)` bits of `digest` as an integer (SEC 1 §4.1.4
  /// step 5); the caller reduces it modulo `n`.
  static func digestInteger(_ digest: [UInt8]) -> U256 {
    if digest.count >= 32 { return U256(bigEndian: digest, from: 0) }
    let padded = [UInt8](repeating: 0, count: 32 - digest.count) + digest
    return U256(bigEndian: padded, from: 0)
  }
}
