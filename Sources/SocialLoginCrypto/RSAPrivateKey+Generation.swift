// RSA key generation: random primes by incremental sieve plus Miller–Rabin.

extension RSAPrivateKey {
  /// Generates a new key with `e = 65537` and a modulus of exactly `bitCount` bits.
  ///
  /// Each prime is a random odd `bitCount / 2`-bit number with its two top bits set (so `p * q`
  /// has exactly `bitCount` bits), advanced in steps of 2 past multiples of the first 2,048
  /// small primes and past values with `p ≡ 1 (mod e)`, then tested with 24 rounds of
  /// Miller–Rabin with random bases (HAC Table 4.4 asks for 3 rounds for a 2^-80 error on
  /// random 1,000-bit candidates). `p` and `q` differ in their top 100 bits, as FIPS 186-5
  /// requires. The components then pass the same consistency checks as an imported key.
  ///
  /// Cost: release builds take about 0.1–1 s for 2,048 bits; debug builds are tens of times
  /// slower (often over 10 s), so tests and emulators should generate once and reuse, for
  /// example through ``perProcess``.
  ///
  /// - Parameter bitCount: The modulus size: a multiple of 128 in 2048...4096. Default 2048.
  /// - Throws: ``RSAKeyError/unsupportedModulusSize(bitCount:)`` for other sizes.
  public static func generate(bitCount: Int = 2048) throws(RSAKeyError) -> RSAPrivateKey {
    guard bitCount % 128 == 0,
      (RSAPublicKey.minimumModulusBitCount...RSAPublicKey.maximumModulusBitCount).contains(
        bitCount)
    else { throw .unsupportedModulusSize(bitCount: bitCount) }
    let e: UInt64 = 65_537
    let primeBits = bitCount / 2
    while true {
      let p = RSAPrimeSearch.prime(bitCount: primeBits, publicExponent: e)
      let q = RSAPrimeSearch.prime(bitCount: primeBits, publicExponent: e)
      // |p - q| must exceed 2^(primeBits - 100): compare the top 100 bits.
      let (difference, borrow) = SecretLimbs.subtract(p, q)
      let magnitude = borrow == 1 ? SecretLimbs.subtract(q, p).0 : difference
      guard Limbs.bitCount(magnitude) > primeBits - 100 else { continue }
      // Put the larger prime first, as PKCS #1 generators usually do (not required).
      let (first, second) = borrow == 1 ? (q, p) : (p, q)
      let n = SecretLimbs.multiply(first, second)
      let one = [UInt64](repeating: 0, count: first.count - 1)
      let firstMinusOne = SecretLimbs.subtract(first, [1] + one).0
      let secondMinusOne = SecretLimbs.subtract(second, [1] + one).0
      let phi = SecretLimbs.multiply(firstMinusOne, secondMinusOne)
      let d = inverse(ofSmall: e, modulo: phi)
      let dp = SecretLimbs.remainder(d, modulus: firstMinusOne)
      let dq = SecretLimbs.remainder(d, modulus: secondMinusOne)
      // qinv = q^(p-2) mod p (p is prime).
      let context = MontgomeryContext(modulus: first)
      let pMinusTwo = SecretLimbs.subtract(first, [2] + one).0
      let qinv = context.power(
        context.reduce(second), exponent: pMinusTwo, exponentBitCount: primeBits)
      let bytes = bitCount / 8
      let half = primeBits / 8
      return try RSAPrivateKey(
        modulus: SecretLimbs.bigEndianBytes(n, byteCount: bytes),
        publicExponent: [0x01, 0x00, 0x01],
        privateExponent: SecretLimbs.bigEndianBytes(d, byteCount: bytes),
        prime1: SecretLimbs.bigEndianBytes(first, byteCount: half),
        prime2: SecretLimbs.bigEndianBytes(second, byteCount: half),
        exponent1: SecretLimbs.bigEndianBytes(dp, byteCount: half),
        exponent2: SecretLimbs.bigEndianBytes(dq, byteCount: half),
        coefficient: SecretLimbs.bigEndianBytes(qinv, byteCount: half))
    }
  }

  /// A 2048-bit key generated once per process, on first use, and shared afterwards.
  ///
  /// For emulators, demos and tests that need *a* key rather than a particular one: key
  /// generation is slow in debug builds, and a test suite that generates a key per test spends
  /// most of its time there. Never use it where the key must stay unknown to other code in the
  /// process (it is a global).
  ///
  /// ```swift
  /// let signer = JWSSigner.rs256(RSAPrivateKey.perProcess, keyID: "emulator-rsa")
  /// ```
  public static var perProcess: RSAPrivateKey { SharedRSAKey.key }

  /// `e^-1 mod phi` for a small prime `e` that does not divide `phi`: `d = (k * phi + 1) / e`
  /// with `k = -phi^-1 mod e`.
  static func inverse(ofSmall e: UInt64, modulo phi: [UInt64]) -> [UInt64] {
    let residue = SecretLimbs.remainder(phi, modulus: [e])[0]
    // residue^-1 mod e by Fermat (e is prime), then k = e - residue^-1.
    var power: UInt64 = 1
    var base = residue
    var exponent = e - 2
    while exponent > 0 {
      if exponent & 1 == 1 { power = power * base % e }
      base = base * base % e
      exponent >>= 1
    }
    let k = (e - power) % e
    let numerator = SecretLimbs.multiply(phi, bySmall: k, adding: 1)
    return SecretLimbs.resized(SecretLimbs.divideExactly(numerator, byOdd: e), to: phi.count)
  }
}

/// The lazily generated ``RSAPrivateKey/perProcess`` key (Swift runs a global's initializer
/// once, thread-safely).
private enum SharedRSAKey {
  static let key: RSAPrivateKey = {
    while true {
      if let key = try? RSAPrivateKey.generate(bitCount: 2048) { return key }
    }
  }()
}

/// Random probable primes for RSA.
///
/// Candidate search is variable time (sieving and rejecting composites), as in every RSA key
/// generator: the candidates that are thrown away say nothing about the prime that is kept.
/// The Miller–Rabin exponentiations themselves are the constant-time ones signing uses.
enum RSAPrimeSearch {
  /// The first 2,048 odd primes, for trial division.
  static let smallPrimes: [UInt64] = {
    var primes: [UInt64] = []
    var candidate: UInt64 = 3
    while primes.count < 2048 {
      var isPrime = true
      for prime in primes {
        if prime * prime > candidate { break }
        if candidate % prime == 0 {
          isPrime = false
          break
        }
      }
      if isPrime { primes.append(candidate) }
      candidate += 2
    }
    return primes
  }()

  static let millerRabinRounds = 24

  /// A random probable prime of exactly `bitCount` bits (a multiple of 64) with its top two
  /// bits set and `p mod e != 1`.
  static func prime(bitCount: Int, publicExponent e: UInt64) -> [UInt64] {
    let limbCount = bitCount / 64
    while true {
      var start = randomLimbs(limbCount)
      start[limbCount - 1] |= 0xC000_0000_0000_0000
      start[0] |= 1
      // Residues of the start modulo each small prime and modulo e.
      let residues = smallPrimes.map { remainder(start, $0) }
      let eResidue = remainder(start, e)
      var offset: UInt64 = 0
      while offset < 1 << 20 {
        var composite = (eResidue + offset) % e == 1
        if !composite {
          for (index, prime) in smallPrimes.enumerated()
          where (residues[index] + offset) % prime == 0 {
            composite = true
            break
          }
        }
        if !composite {
          let candidate = SecretLimbs.add(
            start, [offset] + [UInt64](repeating: 0, count: limbCount - 1))
          // Skip the (astronomically rare) offsets that carry out of the top two bits.
          if candidate.1 == 0, candidate.0[limbCount - 1] >> 62 == 3,
            isProbablePrime(candidate.0, bitCount: bitCount)
          {
            return candidate.0
          }
        }
        offset += 2
      }
    }
  }

  /// `count` random limbs from ``SecureRandom``.
  static func randomLimbs(_ count: Int) -> [UInt64] {
    let bytes = SecureRandom.bytes(count: 8 * count)
    return (0..<count).map { limb in
      var value: UInt64 = 0
      for index in 0..<8 { value = value << 8 | UInt64(bytes[8 * limb + index]) }
      return value
    }
  }

  /// `value mod divisor` for a small divisor (variable time; candidates only).
  static func remainder(_ value: [UInt64], _ divisor: UInt64) -> UInt64 {
    var result: UInt64 = 0
    for limb in value.reversed() {
      result = UInt64((UInt128(result) << 64 | UInt128(limb)) % UInt128(divisor))
    }
    return result
  }

  /// Miller–Rabin with ``millerRabinRounds`` random bases in `[2, n - 2]`.
  static func isProbablePrime(_ n: [UInt64], bitCount: Int) -> Bool {
    let s = n.count
    let zero = [UInt64](repeating: 0, count: s - 1)
    let nMinusOne = SecretLimbs.subtract(n, [1] + zero).0
    // n - 1 = d * 2^r with d odd.
    var r = 0
    while (nMinusOne[r >> 6] >> UInt64(r & 63)) & 1 == 0 { r += 1 }
    let d = shiftedRight(nMinusOne, by: r)
    let context = MontgomeryContext(modulus: n)
    let one = [1] + zero
    for _ in 0..<millerRabinRounds {
      // A random base below 2^(bitCount - 1) < n, at least 2.
      var base = randomLimbs(s)
      base[s - 1] &= 0x7FFF_FFFF_FFFF_FFFF
      if Limbs.compare(base, [2] + zero) < 0 { base[0] = 2 }
      let x = context.power(base, exponent: d, exponentBitCount: bitCount)
      if x == one || x == nMinusOne { continue }
      var witness = true
      var xMontgomery = context.montgomeryProduct(x, context.rSquared)
      let minusOneMontgomery = context.montgomeryProduct(nMinusOne, context.rSquared)
      for _ in 1..<r {
        xMontgomery = context.montgomeryProduct(xMontgomery, xMontgomery)
        if xMontgomery == minusOneMontgomery {
          witness = false
          break
        }
      }
      if witness { return false }
    }
    return true
  }

  private static func shiftedRight(_ value: [UInt64], by shift: Int) -> [UInt64] {
    let limbShift = shift >> 6
    let bitShift = UInt64(shift & 63)
    var result = [UInt64](repeating: 0, count: value.count)
    for index in 0..<(value.count - limbShift) {
      let low = value[index + limbShift] >> bitShift
      let high: UInt64 =
        bitShift == 0 || index + limbShift + 1 >= value.count
        ? 0 : value[index + limbShift + 1] << (64 - bitShift)
      result[index] = low | high
    }
    return result
  }
}
