// Variable-time P-256 field and scalar arithmetic for verification, where every input is public
// (the public key, the signature, the digest, the generator table).
//
// The products are the same straight-line code as the constant-time ones in P256Field.swift;
// only the final reductions differ: they branch instead of masking, which saves a few
// instructions per operation. ECDSA verification performs thousands of field operations, so
// this is worth a quarter of its time. Never pass these a secret (a private scalar, a nonce or a
// point derived from one): use ``P256Field`` and ``P256Scalar`` for those.

extension P256Field {
  /// GF(p) arithmetic in Montgomery form, variable time: public data only.
  enum VariableTime {
    /// Montgomery product `a * b * 2^-256 mod p`. Variable time.
    @inline(__always)
    static func multiply(_ a: U256, _ b: U256) -> U256 {
      finalSubtract(P256Field.multiplyBelowTwicePrime(a, b))
    }

    /// Montgomery square `a * a * 2^-256 mod p`. Variable time.
    @inline(__always)
    static func square(_ a: U256) -> U256 {
      finalSubtract(P256Field.squareBelowTwicePrime(a))
    }

    /// `(a + b) mod p`. Variable time.
    @inline(__always)
    static func add(_ a: U256, _ b: U256) -> U256 {
      U256.modularAddVariableTime(
        a, b,
        modulus: U256(
          l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001))
    }

    /// `(a - b) mod p`. Variable time.
    @inline(__always)
    static func subtract(_ a: U256, _ b: U256) -> U256 {
      U256.modularSubtractVariableTime(
        a, b,
        modulus: U256(
          l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001))
    }

    /// `-a mod p`. Variable time.
    @inline(__always)
    static func negate(_ a: U256) -> U256 { subtract(.zero, a) }

    /// Converts a canonical integer `< p` to Montgomery form. Variable time.
    static func toMontgomery(_ a: U256) -> U256 { multiply(a, P256Field.rSquared) }

    /// `a^-1` (Montgomery form in and out) by Fermat, `a^(p-2)`; `a` must be non-zero.
    /// Variable time (the generator table's batch conversion to affine).
    static func inverse(_ a: U256) -> U256 {
      let exponent = U256(
        l0: 0xFFFF_FFFF_FFFF_FFFD, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001)
      return Exponentiation.power(a, exponent, one: P256Field.one, multiply: multiply)
    }

    /// Reduces a value below `2p` (limbs 0...3 plus the bit in limb 4) into `[0, p)`, keeping
    /// the difference only when it did not borrow.
    @inline(__always)
    private static func finalSubtract(_ t: (UInt64, UInt64, UInt64, UInt64, UInt64)) -> U256 {
      let value = U256(l0: t.0, l1: t.1, l2: t.2, l3: t.3)
      let (reduced, borrow) = value.subtractingWithBorrow(
        U256(l0: 0xFFFF_FFFF_FFFF_FFFF, l1: 0x0000_0000_FFFF_FFFF, l2: 0, l3: 0xFFFF_FFFF_0000_0001)
      )
      return (borrow != 0 && t.4 == 0) ? value : reduced
    }
  }
}

extension P256Scalar {
  /// Arithmetic modulo `n` in Montgomery form, variable time: public data only (the
  /// signature's `r` and `s`, the digest).
  enum VariableTime {
    /// Montgomery product `a * b * 2^-256 mod n`. Variable time.
    @inline(__always)
    static func multiply(_ a: U256, _ b: U256) -> U256 {
      U256.montgomeryMultiplyVariableTime(
        a, b,
        modulus: U256(
          l0: 0xF3B9_CAC2_FC63_2551, l1: 0xBCE6_FAAD_A717_9E84, l2: 0xFFFF_FFFF_FFFF_FFFF,
          l3: 0xFFFF_FFFF_0000_0000),
        mInverse: 0xCCD1_C8AA_EE00_BC4F)
    }

    /// `a^-1 * 2^256 mod n` for a canonical `0 < a < n` (Fermat, `a^(n-2)`). Variable time: for
    /// the signature's public `s`.
    static func inverseMontgomery(_ a: U256) -> U256 {
      let exponent = U256(
        l0: 0xF3B9_CAC2_FC63_254F, l1: 0xBCE6_FAAD_A717_9E84, l2: 0xFFFF_FFFF_FFFF_FFFF,
        l3: 0xFFFF_FFFF_0000_0000)
      return Exponentiation.power(
        multiply(a, P256Scalar.rSquared), exponent, one: P256Scalar.one, multiply: multiply)
    }
  }
}
