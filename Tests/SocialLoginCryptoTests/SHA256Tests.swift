import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct SHA256Tests {
  @Test func sizes() {
    #expect(SHA256.digestByteCount == 32)
    #expect(SHA256.blockByteCount == 64)
    #expect(SHA256.hash([UInt8]()).count == 32)
  }

  @Test func fipsExamplesAndEmptyMessage() throws {
    try checkHash(
      SHA256.self,
      vectors: [
        ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (fips448BitMessage, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (fips896BitMessage, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
      ])
  }

  @Test func oneMillionA() throws {
    let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    #expect(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)).hex == expected)
    var hasher = SHA256()
    let chunk = [UInt8](repeating: 0x61, count: 1000)
    for _ in 0..<1000 {
      hasher.update(chunk)
    }
    #expect(hasher.finalize().hex == expected)
  }

  /// Lengths around the point where padding spills into an extra block (55/56) and around
  /// block boundaries.
  @Test func paddingBoundaries() throws {
    try checkHash(
      SHA256.self,
      vectors: [
        (
          patternBytes(count: 55),
          "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"
        ),
        (
          patternBytes(count: 56),
          "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"
        ),
        (
          patternBytes(count: 63),
          "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"
        ),
        (
          patternBytes(count: 64),
          "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"
        ),
        (
          patternBytes(count: 65),
          "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"
        ),
        (
          patternBytes(count: 119),
          "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"
        ),
        (
          patternBytes(count: 120),
          "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"
        ),
        (
          patternBytes(count: 128),
          "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"
        ),
      ])
  }

  @Test func finalizeLeavesHasherUsable() {
    var hasher = SHA256()
    hasher.update(Array("ab".utf8))
    let first = hasher.finalize()
    #expect(hasher.finalize() == first)
    hasher.update(Array("c".utf8))
    #expect(hasher.finalize() == SHA256.hash(Array("abc".utf8)))
    #expect(first == SHA256.hash(Array("ab".utf8)))
  }

  @Test func hashesStringUTF8ViewDirectly() {
    #expect(SHA256.hash("abc".utf8) == SHA256.hash([0x61, 0x62, 0x63]))
  }
}
