/// Deterministic ECDSA nonces for P-256 (RFC 6979 §3.2), HMAC-DRBG over the message hash `H`.
///
/// The nonce depends only on the private key and the digest, so signing needs no randomness at
/// signing time and a weak random generator can never leak the key (as repeated or biased
/// nonces did for the PS3 and for Android Bitcoin wallets). The private key and the digest
/// enter the HMAC; no branch depends on them.
struct RFC6979Nonce<H: HashFunction> {
  private var k: [UInt8]
  private var v: [UInt8]
  private var started = false

  /// Steps a–f of RFC 6979 §3.2 for private scalar `x` and message digest `digest` (`h1`).
  init(privateKey x: U256, digest: [UInt8]) {
    let privateOctets = x.bigEndianBytes  // int2octets(x)
    // bits2octets(h1) = int2octets(bits2int(h1) mod q); qlen = 256.
    let digestOctets = P256Scalar.reduce(P256PublicKey.digestInteger(digest)).bigEndianBytes
    v = [UInt8](repeating: 0x01, count: H.digestByteCount)
    k = [UInt8](repeating: 0x00, count: H.digestByteCount)
    k = HMAC<H>.authenticationCode(for: v + [0x00] + privateOctets + digestOctets, using: k)
    v = HMAC<H>.authenticationCode(for: v, using: k)
    k = HMAC<H>.authenticationCode(for: v + [0x01] + privateOctets + digestOctets, using: k)
    v = HMAC<H>.authenticationCode(for: v, using: k)
  }

  /// The next candidate `k` (step h). The caller rejects a candidate outside `[1, n-1]`, or one
  /// that gives `r = 0` or `s = 0`, and asks again; the generator then re-keys as step h.3 says.
  mutating func next() -> U256 {
    if started {
      k = HMAC<H>.authenticationCode(for: v + [0x00], using: k)
      v = HMAC<H>.authenticationCode(for: v, using: k)
    }
    started = true
    var t: [UInt8] = []
    while t.count < 32 {
      v = HMAC<H>.authenticationCode(for: v, using: k)
      t += v
    }
    return U256(bigEndian: t, from: 0)  // bits2int: the leftmost 256 bits
  }
}
