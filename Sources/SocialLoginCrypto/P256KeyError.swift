/// Why a P-256 key was refused by ``P256PublicKey`` or ``P256PrivateKey``.
public enum P256KeyError: Error, Equatable, Sendable {
  /// A coordinate is not exactly 32 bytes, or the X9.63 encoding is not `0x04 || X || Y`
  /// (65 bytes). Compressed points and the single-byte point at infinity are not accepted.
  case invalidEncoding
  /// A coordinate is not smaller than the field prime `p`.
  case coordinateOutOfRange
  /// The point does not satisfy `y^2 = x^3 - 3x + b`.
  case pointNotOnCurve
  /// A private key (``P256PrivateKey``) that is not exactly 32 bytes or whose scalar is not in
  /// `[1, n-1]` (`n` the group order): zero and values at or above `n` are not keys.
  case invalidScalar
}
