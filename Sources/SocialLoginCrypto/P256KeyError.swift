/// Why a P-256 public key was refused by ``P256PublicKey``.
public enum P256KeyError: Error, Equatable, Sendable {
  /// A coordinate is not exactly 32 bytes, or the X9.63 encoding is not `0x04 || X || Y`
  /// (65 bytes). Compressed points and the single-byte point at infinity are not accepted.
  case invalidEncoding
  /// A coordinate is not smaller than the field prime `p`.
  case coordinateOutOfRange
  /// The point does not satisfy `y^2 = x^3 - 3x + b`.
  case pointNotOnCurve
}
