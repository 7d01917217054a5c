import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct SHA1Tests {
  @Test func sizes() {
    #expect(SHA1.digestByteCount == 20)
    #expect(SHA1.blockByteCount == 64)
  }

  @Test func fipsExamplesAndEmptyMessage() throws {
    try checkHash(
      SHA1.self,
      vectors: [
        ([], "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (Array("abc".utf8), "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (fips448BitMessage, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (fips896BitMessage, "a49b2446a02c645bf419f995b67091253a04a259"),
      ])
  }

  @Test func oneMillionA() {
    #expect(
      SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000)).hex
        == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  @Test func paddingBoundaries() throws {
    try checkHash(
      SHA1.self,
      vectors: [
        (patternBytes(count: 55), "8ae2d46729cfe68ff927af5eec9c7d1b66d65ac2"),
        (patternBytes(count: 56), "636e2ec698dac903498e648bd2f3af641d3c88cb"),
        (patternBytes(count: 63), "6d942da0c4392b123528f2905c713a3ce28364bd"),
        (patternBytes(count: 64), "c6138d514ffa2135bfce0ed0b8fac65669917ec7"),
        (patternBytes(count: 65), "69bd728ad6e13cd76ff19751fde427b00e395746"),
        (patternBytes(count: 119), "41c89d06001bab4ab78736b44efe7ce18ce6ae08"),
        (patternBytes(count: 120), "d3dbd653bd8597b7475321b60a36891278e6a04a"),
        (patternBytes(count: 128), "e6434bc401f98603d7eda504790c98c67385d535"),
      ])
  }
}
