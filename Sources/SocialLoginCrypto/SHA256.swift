/// SHA-256 (FIPS 180-4 §6.2), the digest behind JWT `HS256`/`RS256`/`ES256` and PKCE `S256`.
///
/// ```swift
/// let challenge = Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
/// ```
public struct SHA256: HashFunction {
  /// 32 bytes.
  public static var digestByteCount: Int { 32 }
  /// 64 bytes.
  public static var blockByteCount: Int { 64 }

  private var hasher = MerkleDamgardHasher(core: SHA256Core())

  /// Creates a hasher with the FIPS 180-4 initial hash value.
  public init() {}

  /// Feeds more input to the hasher.
  ///
  /// - Parameter data: The bytes to append to the message.
  public mutating func update<D: Collection<UInt8>>(_ data: D) {
    hasher.update(data)
  }

  /// Returns the 32-byte digest of everything fed so far, leaving the hasher usable.
  public func finalize() -> [UInt8] {
    hasher.finalize(digestByteCount: Self.digestByteCount)
  }
}

/// The eight 32-bit chaining words and the compression function.
struct SHA256Core: MerkleDamgardCore {
  static var blockByteCount: Int { 64 }
  static var lengthFieldByteCount: Int { 8 }

  private var h0: UInt32 = 0x6a09_e667
  private var h1: UInt32 = 0xbb67_ae85
  private var h2: UInt32 = 0x3c6e_f372
  private var h3: UInt32 = 0xa54f_f53a
  private var h4: UInt32 = 0x510e_527f
  private var h5: UInt32 = 0x9b05_688c
  private var h6: UInt32 = 0x1f83_d9ab
  private var h7: UInt32 = 0x5be0_cd19

  func digest(byteCount: Int) -> [UInt8] {
    var words = (
      h0.bigEndian, h1.bigEndian, h2.bigEndian, h3.bigEndian,
      h4.bigEndian, h5.bigEndian, h6.bigEndian, h7.bigEndian
    )
    return withUnsafeBytes(of: &words) { Array($0.prefix(byteCount)) }
  }

  mutating func compress(_ blocks: UnsafeRawBufferPointer) {
    #if arch(x86_64)
      compressWithVectorSchedule(blocks)
    #else
      compressScalar(blocks)
    #endif
  }

  // The portable path, also the reference the vector path is tested against.
  //
  // The 64 rounds are written out 16 at a time with the message schedule held in 16 locals
  // (a rolling window), so the optimizer keeps the working state in registers: no array, no
  // bounds checks and no heap traffic per block. The working variables are declared inside
  // the closure on purpose: variables captured from outside it are accessed through memory on
  // every use, which cost about 10% here.
  mutating func compressScalar(_ blocks: UnsafeRawBufferPointer) {
    sha256RoundConstants.withUnsafeBufferPointer { k in
      var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
      var block = blocks.baseAddress.unsafelyUnwrapped
      let end = block + blocks.count
      while block < end {
        let start = (a, b, c, d, e, f, g, h)
        var bc = b ^ c
        var w0 = word(block, 0)
        var w1 = word(block, 1)
        var w2 = word(block, 2)
        var w3 = word(block, 3)
        var w4 = word(block, 4)
        var w5 = word(block, 5)
        var w6 = word(block, 6)
        var w7 = word(block, 7)
        var w8 = word(block, 8)
        var w9 = word(block, 9)
        var w10 = word(block, 10)
        var w11 = word(block, 11)
        var w12 = word(block, 12)
        var w13 = word(block, 13)
        var w14 = word(block, 14)
        var w15 = word(block, 15)

        round(a, b, c, &d, e, f, g, &h, k[0] &+ w0, &bc)
        round(h, a, b, &c, d, e, f, &g, k[1] &+ w1, &bc)
        round(g, h, a, &b, c, d, e, &f, k[2] &+ w2, &bc)
        round(f, g, h, &a, b, c, d, &e, k[3] &+ w3, &bc)
        round(e, f, g, &h, a, b, c, &d, k[4] &+ w4, &bc)
        round(d, e, f, &g, h, a, b, &c, k[5] &+ w5, &bc)
        round(c, d, e, &f, g, h, a, &b, k[6] &+ w6, &bc)
        round(b, c, d, &e, f, g, h, &a, k[7] &+ w7, &bc)
        round(a, b, c, &d, e, f, g, &h, k[8] &+ w8, &bc)
        round(h, a, b, &c, d, e, f, &g, k[9] &+ w9, &bc)
        round(g, h, a, &b, c, d, e, &f, k[10] &+ w10, &bc)
        round(f, g, h, &a, b, c, d, &e, k[11] &+ w11, &bc)
        round(e, f, g, &h, a, b, c, &d, k[12] &+ w12, &bc)
        round(d, e, f, &g, h, a, b, &c, k[13] &+ w13, &bc)
        round(c, d, e, &f, g, h, a, &b, k[14] &+ w14, &bc)
        round(b, c, d, &e, f, g, h, &a, k[15] &+ w15, &bc)

        var t = 16
        while t < 64 {
          schedule(&w0, w14, w9, w1)
          round(a, b, c, &d, e, f, g, &h, k[t] &+ w0, &bc)
          schedule(&w1, w15, w10, w2)
          round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w1, &bc)
          schedule(&w2, w0, w11, w3)
          round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w2, &bc)
          schedule(&w3, w1, w12, w4)
          round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w3, &bc)
          schedule(&w4, w2, w13, w5)
          round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w4, &bc)
          schedule(&w5, w3, w14, w6)
          round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w5, &bc)
          schedule(&w6, w4, w15, w7)
          round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w6, &bc)
          schedule(&w7, w5, w0, w8)
          round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w7, &bc)
          schedule(&w8, w6, w1, w9)
          round(a, b, c, &d, e, f, g, &h, k[t + 8] &+ w8, &bc)
          schedule(&w9, w7, w2, w10)
          round(h, a, b, &c, d, e, f, &g, k[t + 9] &+ w9, &bc)
          schedule(&w10, w8, w3, w11)
          round(g, h, a, &b, c, d, e, &f, k[t + 10] &+ w10, &bc)
          schedule(&w11, w9, w4, w12)
          round(f, g, h, &a, b, c, d, &e, k[t + 11] &+ w11, &bc)
          schedule(&w12, w10, w5, w13)
          round(e, f, g, &h, a, b, c, &d, k[t + 12] &+ w12, &bc)
          schedule(&w13, w11, w6, w14)
          round(d, e, f, &g, h, a, b, &c, k[t + 13] &+ w13, &bc)
          schedule(&w14, w12, w7, w15)
          round(c, d, e, &f, g, h, a, &b, k[t + 14] &+ w14, &bc)
          schedule(&w15, w13, w8, w0)
          round(b, c, d, &e, f, g, h, &a, k[t + 15] &+ w15, &bc)
          t &+= 16
        }

        a &+= start.0
        b &+= start.1
        c &+= start.2
        d &+= start.3
        e &+= start.4
        f &+= start.5
        g &+= start.6
        h &+= start.7
        block += 64
      }
      (h0, h1, h2, h3, h4, h5, h6, h7) = (a, b, c, d, e, f, g, h)
    }
  }
}

#if arch(x86_64)
  extension SHA256Core {
    // Baseline x86-64 has 16 general-purpose registers and no BMI2 `rorx`, so the scalar
    // path is bound by the number of integer instructions; its message schedule alone is about
    // a quarter of them. Here the schedule runs four words at a time in the SSE2 vector unit,
    // which otherwise sits idle, and W[t] + K[t] is stored to a 64-word stack table that the
    // rounds read with memory-operand adds: about 1.3x the scalar path's throughput.
    //
    // The table must span the whole block: with a 16-word ring the optimizer forwards each
    // stored vector to its rounds as lane extractions (two vector instructions per round), which
    // measured slower than the loads.
    mutating func compressWithVectorSchedule(_ blocks: UnsafeRawBufferPointer) {
      sha256RoundConstants.withUnsafeBytes { constants in
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { table in
          let k = constants.baseAddress.unsafelyUnwrapped
          let wk = table.baseAddress.unsafelyUnwrapped
          var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
          var block = blocks.baseAddress.unsafelyUnwrapped
          let end = block + blocks.count
          while block < end {
            let start = (a, b, c, d, e, f, g, h)
            var bc = b ^ c
            var x0 = bigEndianWords(block, 0)
            var x1 = bigEndianWords(block, 16)
            var x2 = bigEndianWords(block, 32)
            var x3 = bigEndianWords(block, 48)
            storeScheduled(x0, k, 0, wk)
            storeScheduled(x1, k, 16, wk + 4)
            storeScheduled(x2, k, 32, wk + 8)
            storeScheduled(x3, k, 48, wk + 12)

            // Rounds t..<t+16 read the table while W[t+16..<t+32] is computed and stored ahead
            // of them; the vector work overlaps the rounds out of order.
            var w = wk
            var kOffset = 64
            while kOffset < 256 {
              vectorPathRound(a, b, c, &d, e, f, g, &h, w[0], &bc)
              vectorPathRound(h, a, b, &c, d, e, f, &g, w[1], &bc)
              vectorPathRound(g, h, a, &b, c, d, e, &f, w[2], &bc)
              vectorPathRound(f, g, h, &a, b, c, d, &e, w[3], &bc)
              x0 = nextScheduleWords(x0, x1, x2, x3)
              storeScheduled(x0, k, kOffset, w + 16)
              vectorPathRound(e, f, g, &h, a, b, c, &d, w[4], &bc)
              vectorPathRound(d, e, f, &g, h, a, b, &c, w[5], &bc)
              vectorPathRound(c, d, e, &f, g, h, a, &b, w[6], &bc)
              vectorPathRound(b, c, d, &e, f, g, h, &a, w[7], &bc)
              x1 = nextScheduleWords(x1, x2, x3, x0)
              storeScheduled(x1, k, kOffset &+ 16, w + 20)
              vectorPathRound(a, b, c, &d, e, f, g, &h, w[8], &bc)
              vectorPathRound(h, a, b, &c, d, e, f, &g, w[9], &bc)
              vectorPathRound(g, h, a, &b, c, d, e, &f, w[10], &bc)
              vectorPathRound(f, g, h, &a, b, c, d, &e, w[11], &bc)
              x2 = nextScheduleWords(x2, x3, x0, x1)
              storeScheduled(x2, k, kOffset &+ 32, w + 24)
              vectorPathRound(e, f, g, &h, a, b, c, &d, w[12], &bc)
              vectorPathRound(d, e, f, &g, h, a, b, &c, w[13], &bc)
              vectorPathRound(c, d, e, &f, g, h, a, &b, w[14], &bc)
              vectorPathRound(b, c, d, &e, f, g, h, &a, w[15], &bc)
              x3 = nextScheduleWords(x3, x0, x1, x2)
              storeScheduled(x3, k, kOffset &+ 48, w + 28)
              w += 16
              kOffset &+= 64
            }
            vectorPathRound(a, b, c, &d, e, f, g, &h, w[0], &bc)
            vectorPathRound(h, a, b, &c, d, e, f, &g, w[1], &bc)
            vectorPathRound(g, h, a, &b, c, d, e, &f, w[2], &bc)
            vectorPathRound(f, g, h, &a, b, c, d, &e, w[3], &bc)
            vectorPathRound(e, f, g, &h, a, b, c, &d, w[4], &bc)
            vectorPathRound(d, e, f, &g, h, a, b, &c, w[5], &bc)
            vectorPathRound(c, d, e, &f, g, h, a, &b, w[6], &bc)
            vectorPathRound(b, c, d, &e, f, g, h, &a, w[7], &bc)
            vectorPathRound(a, b, c, &d, e, f, g, &h, w[8], &bc)
            vectorPathRound(h, a, b, &c, d, e, f, &g, w[9], &bc)
            vectorPathRound(g, h, a, &b, c, d, e, &f, w[10], &bc)
            vectorPathRound(f, g, h, &a, b, c, d, &e, w[11], &bc)
            vectorPathRound(e, f, g, &h, a, b, c, &d, w[12], &bc)
            vectorPathRound(d, e, f, &g, h, a, b, &c, w[13], &bc)
            vectorPathRound(c, d, e, &f, g, h, a, &b, w[14], &bc)
            vectorPathRound(b, c, d, &e, f, g, h, &a, w[15], &bc)

            a &+= start.0
            b &+= start.1
            c &+= start.2
            d &+= start.3
            e &+= start.4
            f &+= start.5
            g &+= start.6
            h &+= start.7
            block += 64
          }
          (h0, h1, h2, h3, h4, h5, h6, h7) = (a, b, c, d, e, f, g, h)
        }
      }
    }
  }

  /// `round` with shallower big sigmas. Once the schedule has left the integer unit, the rounds'
  /// dependency chains (Σ1 feeds the new `e`, Σ0 the new `a`) start to bound the speed, so the
  /// extra register copies of these forms pay for themselves: Σ0 as three independent rotations,
  /// Σ1 as `ror(e ^ ror(e, 5) ^ ror(e, 19), 6)` (equal to `ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)`).
  /// Both choices measured best of the nested, half-nested and flat forms.
  @inline(__always)
  private func vectorPathRound(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
    _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32, _ bc: inout UInt32
  ) {
    let sigma1 = rotateRight(e ^ rotateRight(e, 5) ^ rotateRight(e, 19), 6)
    let choose = g ^ (e & (f ^ g))
    let t1 = h &+ kw &+ choose &+ sigma1
    let sigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
    let ab = a ^ b
    let majority = (ab & bc) ^ b
    bc = ab
    d &+= t1
    h = t1 &+ sigma0 &+ majority
  }

  /// Four message words from `block` at `byteOffset`, byte-swapped from big-endian. Written with
  /// shifts and masks, which the optimizer turns into SSE2 word shuffles (there is no `pshufb`
  /// in baseline x86-64).
  @inline(__always)
  private func bigEndianWords(_ block: UnsafeRawPointer, _ byteOffset: Int) -> SIMD4<UInt32> {
    let words = block.loadUnaligned(fromByteOffset: byteOffset, as: SIMD4<UInt32>.self)
    let swappedBytes = ((words &<< 8) & 0xff00_ff00) | ((words &>> 8) & 0x00ff_00ff)
    return (swappedBytes &<< 16) | (swappedBytes &>> 16)
  }

  /// Stores W + K for four rounds; `kByteOffset` locates their constants in the table.
  @inline(__always)
  private func storeScheduled(
    _ words: SIMD4<UInt32>, _ k: UnsafeRawPointer, _ kByteOffset: Int,
    _ destination: UnsafeMutablePointer<UInt32>
  ) {
    let constants = k.loadUnaligned(fromByteOffset: kByteOffset, as: SIMD4<UInt32>.self)
    UnsafeMutableRawPointer(destination).storeBytes(
      of: words &+ constants, as: SIMD4<UInt32>.self)
  }

  /// Shifts each 64-bit lane left by `count`. Written as a multiplication because Swift's SIMD
  /// shift operators are lane-by-lane loops that LLVM must re-vectorize, and it turns
  /// shift-and-xor sums of one value into rotations it then scalarizes; multiplication by a
  /// power of two is a true vector operation that becomes a single `psllq`.
  @inline(__always)
  private func shiftedLeft(_ lanes: SIMD2<UInt64>, _ count: UInt64) -> SIMD2<UInt64> {
    lanes &* SIMD2(repeating: 1 &<< count)
  }

  /// σ0 or σ1 (FIPS 180-4 §4.1.2) of `first` and `second`, left in lanes 1 and 3.
  ///
  /// Each word is placed twice in a 64-bit lane (`x:x`), so the high half of a left shift by
  /// `32 - r` is the word rotated right by `r`; placed once (`0:x`), the high half of a left shift
  /// by `32 - s` is the word shifted right by `s`. One xor of three 64-bit shifts then gives the
  /// whole small sigma, with no 32-bit rotate (which SSE2 lacks) anywhere. Little-endian only:
  /// lane 1 of the 32-bit view is the high half of 64-bit lane 0.
  @inline(__always)
  private func smallSigma(
    _ first: UInt32, _ second: UInt32, rotations: (UInt64, UInt64), shift: UInt64
  ) -> SIMD4<UInt32> {
    let doubled = unsafeBitCast(SIMD4(first, first, second, second), to: SIMD2<UInt64>.self)
    let single = unsafeBitCast(SIMD4(first, 0, second, 0), to: SIMD2<UInt64>.self)
    let sum =
      shiftedLeft(doubled, 32 &- rotations.0) ^ shiftedLeft(doubled, 32 &- rotations.1)
      ^ shiftedLeft(single, 32 &- shift)
    return unsafeBitCast(sum, to: SIMD4<UInt32>.self)
  }

  /// W[t..<t+4] from the previous sixteen words, `x0` = W[t-16..<t-12] through
  /// `x3` = W[t-4..<t]. W[t+2] and W[t+3] depend on W[t] and W[t+1] through σ1, so σ1 is applied
  /// twice, to two words each time.
  @inline(__always)
  private func nextScheduleWords(
    _ x0: SIMD4<UInt32>, _ x1: SIMD4<UInt32>, _ x2: SIMD4<UInt32>, _ x3: SIMD4<UInt32>
  ) -> SIMD4<UInt32> {
    let sigma0Low = smallSigma(x0[1], x0[2], rotations: (7, 18), shift: 3)
    let sigma0High = smallSigma(x0[3], x1[0], rotations: (7, 18), shift: 3)
    let minus7 = SIMD4(x2[1], x2[2], x2[3], x3[0])
    let partial =
      x0 &+ SIMD4(sigma0Low[1], sigma0Low[3], sigma0High[1], sigma0High[3]) &+ minus7
    let sigma1Low = smallSigma(x3[2], x3[3], rotations: (17, 19), shift: 10)
    let low = partial &+ SIMD4(sigma1Low[1], sigma1Low[3], 0, 0)
    let sigma1High = smallSigma(low[0], low[1], rotations: (17, 19), shift: 10)
    return low &+ SIMD4(0, 0, sigma1High[1], sigma1High[3])
  }
#endif

@inline(__always)
private func word(_ block: UnsafeRawPointer, _ index: Int) -> UInt32 {
  UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
}

@inline(__always)
private func rotateRight(_ x: UInt32, _ count: UInt32) -> UInt32 {
  (x &>> count) | (x &<< (32 &- count))
}

/// One round; the caller rotates the roles of the eight working variables instead of moving
/// values between them, so only `d` (becoming the new `e`) and `h` (the new `a`) are written.
///
/// Two standard scalar tricks trim instructions: the big sigmas nest their rotations
/// (`ror(ror(ror(e, 14) ^ e, 5) ^ e, 6)` equals `ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)` but needs
/// one register copy instead of three), and majority is computed as `((a ^ b) & (b ^ c)) ^ b`
/// where `b ^ c` is the previous round's `a ^ b`, carried in `bc`.
@inline(__always)
private func round(
  _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
  _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32, _ bc: inout UInt32
) {
  let sigma1 = rotateRight(rotateRight(rotateRight(e, 14) ^ e, 5) ^ e, 6)
  let choose = g ^ (e & (f ^ g))
  let t1 = h &+ kw &+ choose &+ sigma1
  let sigma0 = rotateRight(rotateRight(rotateRight(a, 9) ^ a, 11) ^ a, 2)
  let ab = a ^ b
  let majority = (ab & bc) ^ b
  bc = ab
  d &+= t1
  h = t1 &+ sigma0 &+ majority
}

/// Extends the message schedule in place: `w` is W[t-16] on entry and W[t] on exit. The small
/// sigmas nest their rotations like the big ones.
@inline(__always)
private func schedule(_ w: inout UInt32, _ w2: UInt32, _ w7: UInt32, _ w15: UInt32) {
  let s0 = rotateRight(rotateRight(w15, 11) ^ w15, 7) ^ (w15 &>> 3)
  let s1 = rotateRight(rotateRight(w2, 2) ^ w2, 17) ^ (w2 &>> 10)
  w &+= s1 &+ w7 &+ s0
}

/// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
/// 64 primes.
private let sha256RoundConstants: [UInt32] = [
  0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5,
  0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
  0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3,
  0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
  0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc,
  0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
  0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
  0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
  0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13,
  0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
  0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3,
  0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
  0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5,
  0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
  0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208,
  0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
]
