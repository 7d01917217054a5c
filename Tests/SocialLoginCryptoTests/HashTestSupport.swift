import SocialLoginCrypto
import Testing

/// Bytes `i % 251` for `i in 0..<count`: a non-periodic-in-64 pattern whose digests were
/// computed independently (Python `hashlib`) for the boundary-length vectors.
func patternBytes(count: Int) -> [UInt8] {
  (0..<count).map { UInt8($0 % 251) }
}

/// FIPS 180-4's 896-bit (two 1024-bit-block for SHA-512, two-block for SHA-1/256) message.
let fips896BitMessage = Array(
  ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
    + "lmnopqrsmnopqrstnopqrstu").utf8)

/// FIPS 180-4's 448-bit message.
let fips448BitMessage = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)

/// Feeds `message` in randomly sized pieces, including empty ones, through every input path.
func incrementalDigest<H: HashFunction>(
  _: H.Type, of message: [UInt8], using generator: inout SplitMix64
) -> [UInt8] {
  var hasher = H()
  var index = 0
  var pieceNumber = 0
  while index < message.count {
    let length = Int.random(
      in: 0...min(message.count - index, 2 * H.blockByteCount), using: &generator)
    let piece = message[index..<(index + length)]
    switch pieceNumber % 3 {
    case 0: hasher.update(piece)  // contiguous slice
    case 1: hasher.update(Array(piece))  // contiguous array
    default: hasher.update(piece.lazy.map { $0 })  // non-contiguous path
    }
    index += length
    pieceNumber += 1
  }
  return hasher.finalize()
}

/// Checks `H` against independently computed digests and its own incremental interface.
func checkHash<H: HashFunction>(
  _ type: H.Type, vectors: [(message: [UInt8], digest: String)],
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  var generator = SplitMix64(seed: 0x5EED)
  for (message, digest) in vectors {
    let expected = try [UInt8](hex: digest)
    #expect(
      H.hash(message).hex == expected.hex, "length \(message.count)", sourceLocation: sourceLocation
    )
    for _ in 0..<8 {
      let incremental = incrementalDigest(H.self, of: message, using: &generator)
      #expect(
        incremental.hex == expected.hex, "split, length \(message.count)",
        sourceLocation: sourceLocation)
    }
  }
}
