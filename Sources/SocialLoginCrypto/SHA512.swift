/// SHA-512 (FIPS 180-4 §6.4), the digest behind JWT `HS512`/`RS512`.
///
/// ```swift
/// let digest = SHA512.hash(Array(signingInput.utf8))  // 64 bytes
/// ```
public struct SHA512: HashFunction {
  /// 64 bytes.
  public static var digestByteCount: Int { 64 }
  /// 128 bytes.
  public static var blockByteCount: Int { 128 }

  private var hasher = MerkleDamgardHasher(core: SHA512Core.sha512)

  /// Creates a hasher with the FIPS 180-4 initial hash value for SHA-512.
  public init() {}

  /// Feeds more input to the hasher.
  ///
  /// - Parameter data: The bytes to append to the message.
  public mutating func update<D: Collection<UInt8>>(_ data: D) {
    hasher.update(data)
  }

  /// Returns the 64-byte digest of everything fed so far, leaving the hasher usable.
  public func finalize() -> [UInt8] {
    hasher.finalize(digestByteCount: Self.digestByteCount)
  }
}

/// SHA-384 (FIPS 180-4 §6.5): SHA-512 with its own initial value, truncated to 48 bytes;
/// the digest behind JWT `HS384`/`RS384`/`ES384`.
///
/// ```swift
/// let digest = SHA384.hash(Array(signingInput.utf8))  // 48 bytes
/// ```
public struct SHA384: HashFunction {
  /// 48 bytes.
  public static var digestByteCount: Int { 48 }
  /// 128 bytes.
  public static var blockByteCount: Int { 128 }

  private var hasher = MerkleDamgardHasher(core: SHA512Core.sha384)

  /// Creates a hasher with the FIPS 180-4 initial hash value for SHA-384.
  public init() {}

  /// Feeds more input to the hasher.
  ///
  /// - Parameter data: The bytes to append to the message.
  public mutating func update<D: Collection<UInt8>>(_ data: D) {
    hasher.update(data)
  }

  /// Returns the 48-byte digest of everything fed so far, leaving the hasher usable.
  public func finalize() -> [UInt8] {
    hasher.finalize(digestByteCount: Self.digestByteCount)
  }
}

/// The 64-bit core shared by SHA-384 and SHA-512: eight 64-bit chaining words and the
/// compression function. The two algorithms differ only in initial value and output length.
struct SHA512Core: MerkleDamgardCore {
  static var blockByteCount: Int { 128 }
  static var lengthFieldByteCount: Int { 16 }

  static var sha512: SHA512Core {
    SHA512Core(
      0x6A09_E667_F3BC_C908,
      0xBB67_AE85_84CA_A73B,
      0x3C6E_F372_FE94_F82B,
      0xA54F_F53A_5F1D_36F1,
      0x510E_527F_ADE6_82D1,
      0x9B05_688C_2B3E_6C1F,
      0x1F83_D9AB_FB41_BD6B,
      0x5BE0_CD19_137E_2179,
    )
  }

  static var sha384: SHA512Core {
    SHA512Core(
      0xCBBB_9D5D_C105_9ED8,
      0x629A_292A_367C_D507,
      0x9159_015A_3070_DD17,
      0x152F_ECD8_F70E_5939,
      0x6733_2667_FFC0_0B31,
      0x8EB4_4A87_6858_1511,
      0xDB0C_2E0D_64F9_8FA7,
      0x47B5_481D_BEFA_4FA4,
    )
  }

  private var h0, h1, h2, h3, h4, h5, h6, h7: UInt64

  private init(
    _ h0: UInt64, _ h1: UInt64, _ h2: UInt64, _ h3: UInt64,
    _ h4: UInt64, _ h5: UInt64, _ h6: UInt64, _ h7: UInt64
  ) {
    (self.h0, self.h1, self.h2, self.h3) = (h0, h1, h2, h3)
    (self.h4, self.h5, self.h6, self.h7) = (h4, h5, h6, h7)
  }

  func digest(byteCount: Int) -> [UInt8] {
    var words = (
      h0.bigEndian, h1.bigEndian, h2.bigEndian, h3.bigEndian,
      h4.bigEndian, h5.bigEndian, h6.bigEndian, h7.bigEndian
    )
    return withUnsafeBytes(of: &words) { Array($0.prefix(byteCount)) }
  }

  // Same structure as SHA-256's compression: 16 rounds written out per loop iteration over a
  // rolling 16-word schedule in locals, declared inside the closure so they stay in registers.
  mutating func compress(_ blocks: UnsafeRawBufferPointer) {
    sha512RoundConstants.withUnsafeBufferPointer { k in
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
        while t < 80 {
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
        block += 128
      }
      (h0, h1, h2, h3, h4, h5, h6, h7) = (a, b, c, d, e, f, g, h)
    }
  }
}

@inline(__always)
private func word(_ block: UnsafeRawPointer, _ index: Int) -> UInt64 {
  UInt64(bigEndian: block.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
}

@inline(__always)
private func rotateRight(_ x: UInt64, _ count: UInt64) -> UInt64 {
  (x &>> count) | (x &<< (64 &- count))
}

/// One round; see the SHA-256 counterpart for why the roles rotate instead of the values and
/// for the nested-rotation and carried `b ^ c` tricks.
@inline(__always)
private func round(
  _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
  _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64, _ kw: UInt64, _ bc: inout UInt64
) {
  let sigma1 = rotateRight(rotateRight(rotateRight(e, 23) ^ e, 4) ^ e, 14)
  let choose = g ^ (e & (f ^ g))
  let t1 = h &+ kw &+ choose &+ sigma1
  let sigma0 = rotateRight(rotateRight(rotateRight(a, 5) ^ a, 6) ^ a, 28)
  let ab = a ^ b
  let majority = (ab & bc) ^ b
  bc = ab
  d &+= t1
  h = t1 &+ sigma0 &+ majority
}

/// Extends the message schedule in place: `w` is W[t-16] on entry and W[t] on exit.
@inline(__always)
private func schedule(_ w: inout UInt64, _ w2: UInt64, _ w7: UInt64, _ w15: UInt64) {
  let s0 = rotateRight(rotateRight(w15, 7) ^ w15, 1) ^ (w15 &>> 7)
  let s1 = rotateRight(rotateRight(w2, 42) ^ w2, 19) ^ (w2 &>> 6)
  w &+= s1 &+ w7 &+ s0
}

/// FIPS 180-4 §4.2.3: the first 64 bits of the fractional parts of the cube roots of the first
/// 80 primes.
private let sha512RoundConstants: [UInt64] = [
  0x428A_2F98_D728_AE22, 0x7137_4491_23EF_65CD,
  0xB5C0_FBCF_EC4D_3B2F, 0xE9B5_DBA5_8189_DBBC,
  0x3956_C25B_F348_B538, 0x59F1_11F1_B605_D019,
  0x923F_82A4_AF19_4F9B, 0xAB1C_5ED5_DA6D_8118,
  0xD807_AA98_A303_0242, 0x1283_5B01_4570_6FBE,
  0x2431_85BE_4EE4_B28C, 0x550C_7DC3_D5FF_B4E2,
  0x72BE_5D74_F27B_896F, 0x80DE_B1FE_3B16_96B1,
  0x9BDC_06A7_25C7_1235, 0xC19B_F174_CF69_2694,
  0xE49B_69C1_9EF1_4AD2, 0xEFBE_4786_384F_25E3,
  0x0FC1_9DC6_8B8C_D5B5, 0x240C_A1CC_77AC_9C65,
  0x2DE9_2C6F_592B_0275, 0x4A74_84AA_6EA6_E483,
  0x5CB0_A9DC_BD41_FBD4, 0x76F9_88DA_8311_53B5,
  0x983E_5152_EE66_DFAB, 0xA831_C66D_2DB4_3210,
  0xB003_27C8_98FB_213F, 0xBF59_7FC7_BEEF_0EE4,
  0xC6E0_0BF3_3DA8_8FC2, 0xD5A7_9147_930A_A725,
  0x06CA_6351_E003_826F, 0x1429_2967_0A0E_6E70,
  0x27B7_0A85_46D2_2FFC, 0x2E1B_2138_5C26_C926,
  0x4D2C_6DFC_5AC4_2AED, 0x5338_0D13_9D95_B3DF,
  0x650A_7354_8BAF_63DE, 0x766A_0ABB_3C77_B2A8,
  0x81C2_C92E_47ED_AEE6, 0x9272_2C85_1482_353B,
  0xA2BF_E8A1_4CF1_0364, 0xA81A_664B_BC42_3001,
  0xC24B_8B70_D0F8_9791, 0xC76C_51A3_0654_BE30,
  0xD192_E819_D6EF_5218, 0xD699_0624_5565_A910,
  0xF40E_3585_5771_202A, 0x106A_A070_32BB_D1B8,
  0x19A4_C116_B8D2_D0C8, 0x1E37_6C08_5141_AB53,
  0x2748_774C_DF8E_EB99, 0x34B0_BCB5_E19B_48A8,
  0x391C_0CB3_C5C9_5A63, 0x4ED8_AA4A_E341_8ACB,
  0x5B9C_CA4F_7763_E373, 0x682E_6FF3_D6B2_B8A3,
  0x748F_82EE_5DEF_B2FC, 0x78A5_636F_4317_2F60,
  0x84C8_7814_A1F0_AB72, 0x8CC7_0208_1A64_39EC,
  0x90BE_FFFA_2363_1E28, 0xA450_6CEB_DE82_BDE9,
  0xBEF9_A3F7_B2C6_7915, 0xC671_78F2_E372_532B,
  0xCA27_3ECE_EA26_619C, 0xD186_B8C7_21C0_C207,
  0xEADA_7DD6_CDE0_EB1E, 0xF57D_4F7F_EE6E_D178,
  0x06F0_67AA_7217_6FBA, 0x0A63_7DC5_A2C8_98A6,
  0x113F_9804_BEF9_0DAE, 0x1B71_0B35_131C_471B,
  0x28DB_77F5_2304_7D84, 0x32CA_AB7B_40C7_2493,
  0x3C9E_BE0A_15C9_BEBC, 0x431D_67C4_9C10_0D4C,
  0x4CC5_D4BE_CB3E_42B6, 0x597F_299C_FC65_7E2A,
  0x5FCB_6FAB_3AD6_FAEC, 0x6C44_198C_4A47_5817,
]
