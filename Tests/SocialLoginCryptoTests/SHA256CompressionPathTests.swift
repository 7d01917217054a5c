import TestPacing
import Testing

@testable import SocialLoginCrypto

/// The x86-64 compression function computes the message schedule in SIMD lanes; the FIPS
/// vectors exercise only the path the platform selects, so this checks it block-for-block
/// against the portable scalar path.
@Suite(.heavy, .timeLimit(.minutes(10))) struct SHA256CompressionPathTests {
  #if arch(x86_64)
    /// Random runs of 1...40 blocks, chained from the previous run's state, read from
    /// misaligned addresses (the vector path loads 16 bytes at a time without alignment).
    @Test func vectorScheduleMatchesScalarOnRandomBlocks() {
      var generator = SplitMix64(seed: 0x5A256)
      var vector = SHA256Core()
      var scalar = SHA256Core()
      for trial in 0..<150 {
        let blockCount = Int.random(in: 1...40, using: &generator)
        let misalignment = trial % 16
        let bytes = (0..<(misalignment + 64 * blockCount)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        }
        bytes.withUnsafeBytes { buffer in
          let blocks = UnsafeRawBufferPointer(rebasing: buffer[misalignment...])
          vector.compressWithVectorSchedule(blocks)
          scalar.compressScalar(blocks)
        }
        #expect(
          vector.digest(byteCount: 32) == scalar.digest(byteCount: 32),
          "trial \(trial), \(blockCount) blocks")
      }
    }

    /// All-zero and all-one words drive every addition to its carry extremes.
    @Test func vectorScheduleMatchesScalarOnExtremeBlocks() {
      for fill: UInt8 in [0x00, 0xFF, 0x80, 0x7F] {
        var vector = SHA256Core()
        var scalar = SHA256Core()
        let bytes = [UInt8](repeating: fill, count: 64 * 3)
        bytes.withUnsafeBytes { blocks in
          vector.compressWithVectorSchedule(blocks)
          scalar.compressScalar(blocks)
        }
        #expect(vector.digest(byteCount: 32) == scalar.digest(byteCount: 32), "fill \(fill)")
      }
    }
  #endif

  /// Whichever path `compress` selects, messages of every length up to a few blocks hash the
  /// same as the scalar path fed the same padded blocks through the public API.
  @Test func selectedPathMatchesScalarForManyLengths() {
    var generator = SplitMix64(seed: 0x1E27)
    for length in 0..<300 {
      let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var scalar = SHA256Core()
      let padded = paddedMessage(message)
      padded.withUnsafeBytes { scalar.compressScalar($0) }
      #expect(SHA256.hash(message) == scalar.digest(byteCount: 32), "length \(length)")
    }
  }

  /// FIPS 180-4 §5.1.1 padding, written out independently of `MerkleDamgardHasher`.
  private func paddedMessage(_ message: [UInt8]) -> [UInt8] {
    var padded = message + [0x80]
    while padded.count % 64 != 56 {
      padded.append(0)
    }
    let bitCount = UInt64(message.count) * 8
    for shift in stride(from: 56, through: 0, by: -8) {
      padded.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
    }
    return padded
  }
}
