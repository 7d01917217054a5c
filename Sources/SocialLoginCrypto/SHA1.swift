/// SHA-1 (FIPS 180-4 §6.1), kept only for protocols that still mandate it.
///
/// SHA-1 is broken for collision resistance. It remains acceptable inside HMAC, which is why
/// OAuth 1.0a `HMAC-SHA1` signatures still use it; never use it for new signatures or
/// fingerprints.
///
/// ```swift
/// let signature = HMAC<SHA1>.authenticationCode(for: Array(baseString.utf8), using: signingKey)
/// ```
public struct SHA1: HashFunction {
  /// 20 bytes.
  public static var digestByteCount: Int { 20 }
  /// 64 bytes.
  public static var blockByteCount: Int { 64 }

  private var hasher = MerkleDamgardHasher(core: SHA1Core())

  /// Creates a hasher with the FIPS 180-4 initial hash value.
  public init() {}

  /// Feeds more input to the hasher.
  ///
  /// - Parameter data: The bytes to append to the message.
  public mutating func update<D: Collection<UInt8>>(_ data: D) {
    hasher.update(data)
  }

  /// Returns the 20-byte digest of everything fed so far, leaving the hasher usable.
  public func finalize() -> [UInt8] {
    hasher.finalize(digestByteCount: Self.digestByteCount)
  }
}

/// The five 32-bit chaining words and the compression function.
struct SHA1Core: MerkleDamgardCore {
  static var blockByteCount: Int { 64 }
  static var lengthFieldByteCount: Int { 8 }

  private var h0: UInt32 = 0x6745_2301
  private var h1: UInt32 = 0xEFCD_AB89
  private var h2: UInt32 = 0x98BA_DCFE
  private var h3: UInt32 = 0x1032_5476
  private var h4: UInt32 = 0xC3D2_E1F0

  func digest(byteCount: Int) -> [UInt8] {
    var words = (h0.bigEndian, h1.bigEndian, h2.bigEndian, h3.bigEndian, h4.bigEndian)
    return withUnsafeBytes(of: &words) { Array($0.prefix(byteCount)) }
  }

  // SHA-1 is off the hot paths, so a compact loop over a 16-word rolling schedule on the stack
  // is fast enough and easier to audit than an unrolled version.
  mutating func compress(_ blocks: UnsafeRawBufferPointer) {
    var schedule:
      (
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
      ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &schedule) { raw in
      let w = raw.bindMemory(to: UInt32.self)
      // Declared inside the closure so they are not captured, which would force every access
      // through memory.
      var (a, b, c, d, e) = (h0, h1, h2, h3, h4)
      var block = blocks.baseAddress.unsafelyUnwrapped
      let end = block + blocks.count
      while block < end {
        let start = (a, b, c, d, e)
        for t in 0..<80 {
          let word: UInt32
          if t < 16 {
            word = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
          } else {
            let mixed = w[(t &+ 13) & 15] ^ w[(t &+ 8) & 15] ^ w[(t &+ 2) & 15] ^ w[t & 15]
            word = rotateLeft(mixed, 1)
          }
          w[t & 15] = word
          let function: UInt32
          let constant: UInt32
          switch t {
          case 0..<20:
            function = d ^ (b & (c ^ d))
            constant = 0x5A82_7999
          case 20..<40:
            function = b ^ c ^ d
            constant = 0x6ED9_EBA1
          case 40..<60:
            function = (b & c) | (d & (b | c))
            constant = 0x8F1B_BCDC
          default:
            function = b ^ c ^ d
            constant = 0xCA62_C1D6
          }
          let temp = rotateLeft(a, 5) &+ function &+ e &+ constant &+ word
          e = d
          d = c
          c = rotateLeft(b, 30)
          b = a
          a = temp
        }
        a &+= start.0
        b &+= start.1
        c &+= start.2
        d &+= start.3
        e &+= start.4
        block += 64
      }
      (h0, h1, h2, h3, h4) = (a, b, c, d, e)
    }
  }
}

@inline(__always)
private func rotateLeft(_ x: UInt32, _ count: UInt32) -> UInt32 {
  (x &<< count) | (x &>> (32 &- count))
}
