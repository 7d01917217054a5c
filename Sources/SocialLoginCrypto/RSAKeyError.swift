/// Why an RSA public key was refused by ``RSAPublicKey/init(modulus:exponent:)``.
public enum RSAKeyError: Error, Equatable, Sendable {
  /// The modulus has fewer than 2048 or more than 4096 significant bits.
  case unsupportedModulusSize(bitCount: Int)
  /// The modulus is even, so it cannot be an RSA modulus.
  case evenModulus
  /// The public exponent is even, smaller than 3, or not smaller than the modulus.
  case invalidExponent
}
