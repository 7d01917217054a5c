// Block buffering and length padding shared by SHA-1 and the SHA-2 family (FIPS 180-4 §5.1).
// Each algorithm only supplies its compression function; everything that is easy to get subtly
// wrong at block boundaries lives here once.

/// A hash algorithm's chaining state and compression function.
protocol MerkleDamgardCore: Sendable {
  /// 64 for SHA-1/SHA-256, 128 for SHA-384/SHA-512. Must not exceed `MerkleDamgardBlock` size.
  static var blockByteCount: Int { get }

  /// 8 for SHA-1/SHA-256 (64-bit length), 16 for SHA-384/SHA-512 (128-bit length).
  static var lengthFieldByteCount: Int { get }

  /// Absorbs `blocks`, whose count is a non-zero multiple of `blockByteCount`.
  mutating func compress(_ blocks: UnsafeRawBufferPointer)

  /// The first `byteCount` bytes of the big-endian serialized state.
  func digest(byteCount: Int) -> [UInt8]
}

/// Stack storage for one partial block, so hashers never allocate while absorbing input.
typealias MerkleDamgardBlock = (
  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
)

let zeroMerkleDamgardBlock: MerkleDamgardBlock = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

/// Buffers input into whole blocks for `Core` and applies the final padding.
struct MerkleDamgardHasher<Core: MerkleDamgardCore>: Sendable {
  private var core: Core
  private var pending = zeroMerkleDamgardBlock
  private var pendingCount = 0
  private var messageByteCount: UInt64 = 0

  init(core: Core) {
    self.core = core
  }

  mutating func update<D: Collection<UInt8>>(_ data: D) {
    let handledContiguously: Void? = data.withContiguousStorageIfAvailable { bytes in
      update(UnsafeRawBufferPointer(bytes))
    }
    if handledContiguously != nil { return }

    var chunk = zeroMerkleDamgardBlock
    withUnsafeMutableBytes(of: &chunk) { chunk in
      var count = 0
      for byte in data {
        chunk[count] = byte
        count += 1
        if count == chunk.count {
          update(UnsafeRawBufferPointer(chunk))
          count = 0
        }
      }
      if count > 0 {
        update(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
      }
    }
  }

  mutating func update(_ input: UnsafeRawBufferPointer) {
    guard !input.isEmpty else { return }
    let blockSize = Core.blockByteCount
    messageByteCount &+= UInt64(input.count)
    var offset = 0

    if pendingCount > 0 {
      let taken = min(blockSize - pendingCount, input.count)
      var block = pending
      withUnsafeMutableBytes(of: &block) { block in
        block.baseAddress.unsafelyUnwrapped.advanced(by: pendingCount)
          .copyMemory(from: input.baseAddress.unsafelyUnwrapped, byteCount: taken)
        if pendingCount + taken == blockSize {
          core.compress(UnsafeRawBufferPointer(rebasing: block[..<blockSize]))
        }
      }
      pending = block
      pendingCount += taken
      offset = taken
      if pendingCount < blockSize { return }
      pendingCount = 0
    }

    let wholeBlockBytes = (input.count - offset) / blockSize * blockSize
    if wholeBlockBytes > 0 {
      core.compress(UnsafeRawBufferPointer(rebasing: input[offset..<(offset + wholeBlockBytes)]))
      offset += wholeBlockBytes
    }

    let rest = input.count - offset
    if rest > 0 {
      withUnsafeMutableBytes(of: &pending) { pending in
        pending.baseAddress.unsafelyUnwrapped
          .copyMemory(
            from: input.baseAddress.unsafelyUnwrapped.advanced(by: offset), byteCount: rest)
      }
      pendingCount = rest
    }
  }

  func finalize(digestByteCount: Int) -> [UInt8] {
    let blockSize = Core.blockByteCount
    let lengthOffset = blockSize - Core.lengthFieldByteCount
    var core = self.core
    var block = pending
    withUnsafeMutableBytes(of: &block) { block in
      let block = UnsafeMutableRawBufferPointer(rebasing: block[..<blockSize])
      // Bytes past `pendingCount` may hold stale input from an earlier block; padding needs zeros.
      block[pendingCount] = 0x80
      for index in (pendingCount + 1)..<blockSize {
        block[index] = 0
      }
      if pendingCount + 1 > lengthOffset {
        core.compress(UnsafeRawBufferPointer(block))
        block.initializeMemory(as: UInt8.self, repeating: 0)
      }
      // The length field is the message length in bits; for the 128-bit field the high word
      // receives the bits shifted out of the 64-bit byte count.
      let bitCount = messageByteCount &<< 3
      block.storeBytes(of: bitCount.bigEndian, toByteOffset: blockSize - 8, as: UInt64.self)
      if Core.lengthFieldByteCount == 16 {
        let high = messageByteCount &>> 61
        block.storeBytes(of: high.bigEndian, toByteOffset: blockSize - 16, as: UInt64.self)
      }
      core.compress(UnsafeRawBufferPointer(block))
    }
    return core.digest(byteCount: digestByteCount)
  }
}
