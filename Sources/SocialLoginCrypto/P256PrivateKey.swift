/// A NIST P-256 private key that signs with deterministic ECDSA (RFC 6979), as JWS `ES256`
/// needs.
///
/// Signing is constant time: the nonce comes from HMAC-DRBG over the key and the digest (no
/// random number generator is consulted, so a weak one cannot leak the key), `k * G` reads
/// every table entry and selects by mask, and the scalar arithmetic reduces by mask rather than
/// branching. Verify with ``publicKey``.
///
/// ```swift
/// let key = P256PrivateKey()                              // fresh, from SecureRandom
/// let signature = key.signature(for: Array(signingInput.utf8))
/// key.publicKey.isValidSignature(
///   rawRS: signature.rawRepresentation, digest: SHA256.hash(Array(signingInput.utf8)))  // true
///
/// let imported = try P256PrivateKey(rawRepresentation: jwkD)  // a JWK's "d", 32 bytes
/// ```
///
/// `description` and reflection never show the scalar.
public struct P256PrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
  /// The secret scalar, canonical, in `[1, n-1]`.
  let scalar: U256
  /// The public key `scalar * G`.
  public let publicKey: P256PublicKey

  /// Generates a new key from ``SecureRandom`` (rejection sampling: uniform in `[1, n-1]`).
  public init() {
    while true {
      let candidate = U256(bigEndian: SecureRandom.bytes(count: 32), from: 0)
      if !candidate.isZero && candidate.isLess(than: P256Scalar.order) {
        self.init(validScalar: candidate)
        return
      }
    }
  }

  /// Imports a key from its 32-byte big-endian scalar (a JWK's `d`, RFC 7518 §6.2.2.1).
  ///
  /// - Throws: ``P256KeyError/invalidScalar`` unless `rawRepresentation` is exactly 32 bytes
  ///   holding a value in `[1, n-1]`.
  public init(rawRepresentation: [UInt8]) throws(P256KeyError) {
    guard rawRepresentation.count == 32 else { throw .invalidScalar }
    let scalar = U256(bigEndian: rawRepresentation, from: 0)
    guard !scalar.isZero, scalar.isLess(than: P256Scalar.order) else { throw .invalidScalar }
    self.init(validScalar: scalar)
  }

  private init(validScalar: U256) {
    scalar = validScalar
    let (x, y) = P256Curve.affineCoordinates(P256Curve.generatorMultipleConstantTime(validScalar))
    publicKey = P256PublicKey(
      point: P256AffinePoint(x: P256Field.toMontgomery(x), y: P256Field.toMontgomery(y)))
  }

  /// The 32-byte big-endian scalar, for storing the key or exporting a private JWK's `d`.
  ///
  /// It is the whole secret: keep it out of logs and out of anything a user can read.
  public var rawRepresentation: [UInt8] { scalar.bigEndianBytes }

  /// Signs `message` with ECDSA over SHA-256 and an RFC 6979 nonce: the `ES256` operation.
  ///
  /// - Parameter message: The bytes to sign (for JWS, the ASCII signing input).
  /// - Returns: The signature; the same key and message always give the same signature.
  public func signature(for message: some Collection<UInt8>) -> ECDSASignature {
    signature(digest: SHA256.hash(message), hash: SHA256.self)
  }

  /// Signs `message` hashed with `hash` (ECDSA uses the digest's leftmost 256 bits), with the
  /// RFC 6979 nonce derived through HMAC over the same hash.
  public func signature<H: HashFunction>(for message: some Collection<UInt8>, hash: H.Type)
    -> ECDSASignature
  {
    signature(digest: H.hash(message), hash: hash)
  }

  /// Signs a precomputed `digest` that `hash` produced.
  ///
  /// - Parameters:
  ///   - digest: The message digest; its leftmost 256 bits are used.
  ///   - hash: The hash that made `digest`; RFC 6979 keys its HMAC-DRBG with it.
  public func signature<H: HashFunction>(digest: [UInt8], hash: H.Type) -> ECDSASignature {
    let order = P256Scalar.order
    let e = P256Scalar.reduce(P256PublicKey.digestInteger(digest))
    // d * R mod n, so that one Montgomery product with r gives r * d.
    let scalarMontgomery = P256Scalar.multiply(scalar, P256Scalar.rSquared)
    var nonces = RFC6979Nonce<H>(privateKey: scalar, digest: digest)
    while true {
      let k = nonces.next()
      // Out-of-range candidates have probability about 2^-32; rejecting them reveals nothing
      // about the nonce that is finally used.
      guard !k.isZero, k.isLess(than: order) else { continue }
      let (x, _) = P256Curve.affineCoordinates(P256Curve.generatorMultipleConstantTime(k))
      let r = P256Scalar.reduce(x)
      if r.isZero { continue }
      let kInverse = P256Scalar.inverseMontgomery(k)  // k^-1 * R: fixed exponent n - 2
      let rd = P256Scalar.multiply(r, scalarMontgomery)
      let s = P256Scalar.multiply(U256.modularAdd(e, rd, modulus: order), kInverse)
      if s.isZero { continue }
      return ECDSASignature(r: r, s: s)
    }
  }

  /// `P256PrivateKey(<redacted>)`.
  public var description: String { "P256PrivateKey(<redacted>)" }

  /// A mirror without the scalar.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
