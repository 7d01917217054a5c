/// Why an RSA key was refused by ``RSAPublicKey/init(modulus:exponent:)`` or
/// ``RSAPrivateKey``, or why an RSA private-key operation failed.
public enum RSAKeyError: Error, Equatable, Sendable {
  /// The modulus has fewer than 2048 or more than 4096 significant bits.
  case unsupportedModulusSize(bitCount: Int)
  /// The modulus is even, so it cannot be an RSA modulus.
  case evenModulus
  /// The public exponent is even, smaller than 3, or not smaller than the modulus.
  case invalidExponent
  /// The private components do not fit together: `n != p * q`, a CRT exponent or the
  /// coefficient is out of range or wrong, or `d` disagrees with `dp`/`dq`. The message names
  /// the first check that failed (never a value).
  case inconsistentPrivateKey(String)
  /// The primes `p` and `q` differ in length by 64 bits or more; only balanced keys (what
  /// every RSA key generator produces) are supported.
  case unbalancedPrimes
  /// A CRT signature did not verify with the public key, so it was withheld: releasing a
  /// faulty CRT signature reveals a prime factor (the Bellcore attack).
  case signatureCheckFailed
}
