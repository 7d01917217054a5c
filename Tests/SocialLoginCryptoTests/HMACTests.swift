import SocialLoginCrypto
import TestPacing
import Testing

private struct HMACVector: Sendable, CustomTestStringConvertible {
  let name: String
  let key: [UInt8]
  let message: [UInt8]
  /// The published tag, possibly truncated (RFC 4231 case 5, RFC 2202 case 5 is full-length).
  let tag: String
  var testDescription: String { name }
}

private let longKeyMessage = Array(
  ("This is a test using a larger than block-size key and a larger than block-size data. "
    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8)

/// RFC 4231 §4.2-4.8.
private let rfc4231: [HMACVector] = [
  HMACVector(
    name: "RFC 4231 case 1", key: [UInt8](repeating: 0x0B, count: 20),
    message: Array("Hi There".utf8),
    tag: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
  HMACVector(
    name: "RFC 4231 case 2", key: Array("Jefe".utf8),
    message: Array("what do ya want for nothing?".utf8),
    tag: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
  HMACVector(
    name: "RFC 4231 case 3", key: [UInt8](repeating: 0xAA, count: 20),
    message: [UInt8](repeating: 0xDD, count: 50),
    tag: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
  HMACVector(
    name: "RFC 4231 case 4", key: Array(1...25),
    message: [UInt8](repeating: 0xCD, count: 50),
    tag: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
  HMACVector(
    name: "RFC 4231 case 5 (truncated to 128 bits)", key: [UInt8](repeating: 0x0C, count: 20),
    message: Array("Test With Truncation".utf8),
    tag: "a3b6167473100ee06e0c796c2955552b"),
  HMACVector(
    name: "RFC 4231 case 6 (131-byte key)", key: [UInt8](repeating: 0xAA, count: 131),
    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
    tag: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
  HMACVector(
    name: "RFC 4231 case 7 (131-byte key, long data)", key: [UInt8](repeating: 0xAA, count: 131),
    message: longKeyMessage,
    tag: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
]

/// RFC 2202 §3.
private let rfc2202: [HMACVector] = [
  HMACVector(
    name: "RFC 2202 case 1", key: [UInt8](repeating: 0x0B, count: 20),
    message: Array("Hi There".utf8), tag: "b617318655057264e28bc0b6fb378c8ef146be00"),
  HMACVector(
    name: "RFC 2202 case 2", key: Array("Jefe".utf8),
    message: Array("what do ya want for nothing?".utf8),
    tag: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
  HMACVector(
    name: "RFC 2202 case 3", key: [UInt8](repeating: 0xAA, count: 20),
    message: [UInt8](repeating: 0xDD, count: 50), tag: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
  HMACVector(
    name: "RFC 2202 case 4", key: Array(1...25),
    message: [UInt8](repeating: 0xCD, count: 50), tag: "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
  HMACVector(
    name: "RFC 2202 case 5 (truncated to 96 bits)", key: [UInt8](repeating: 0x0C, count: 20),
    message: Array("Test With Truncation".utf8), tag: "4c1a03424b55e07fe7f27be1"),
  HMACVector(
    name: "RFC 2202 case 6 (80-byte key)", key: [UInt8](repeating: 0xAA, count: 80),
    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
    tag: "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
  HMACVector(
    name: "RFC 2202 case 7 (80-byte key, long data)", key: [UInt8](repeating: 0xAA, count: 80),
    message: Array(
      "Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
    tag: "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
]

/// Checks the one-shot, streaming and verification APIs against one published vector.
private func check<H: HashFunction>(_: H.Type, _ vector: HMACVector) throws {
  let expected = try [UInt8](hex: vector.tag)
  let full = HMAC<H>.authenticationCode(for: vector.message, using: vector.key)
  #expect(full.count == H.digestByteCount)
  #expect(Array(full.prefix(expected.count)).hex == expected.hex)

  var streaming = HMAC<H>(key: vector.key)
  for byte in vector.message {
    streaming.update(CollectionOfOne(byte))
  }
  #expect(streaming.finalize() == full)

  #expect(HMAC<H>.isValidAuthenticationCode(full, for: vector.message, using: vector.key))
  if expected.count < H.digestByteCount {
    // A published truncated tag is right, but the verifier must insist on the full length.
    #expect(!HMAC<H>.isValidAuthenticationCode(expected, for: vector.message, using: vector.key))
  }
}

@Suite(.heavy, .timeLimit(.minutes(10))) struct HMACTests {
  @Test("HMAC-SHA256", arguments: rfc4231)
  fileprivate func hmacSHA256(_ vector: HMACVector) throws {
    try check(SHA256.self, vector)
  }

  @Test("HMAC-SHA1", arguments: rfc2202)
  fileprivate func hmacSHA1(_ vector: HMACVector) throws {
    try check(SHA1.self, vector)
  }

  /// RFC 4231 cases 1 and 6 for the 128-byte-block hashes; the 131-byte key exceeds their block.
  @Test func hmacSHA384AndSHA512() throws {
    let shortKey = [UInt8](repeating: 0x0B, count: 20)
    let shortMessage = Array("Hi There".utf8)
    let longKey = [UInt8](repeating: 0xAA, count: 131)
    let longMessage = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
    try check(
      SHA384.self,
      HMACVector(
        name: "RFC 4231 case 1", key: shortKey, message: shortMessage,
        tag: "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
          + "faea9ea9076ede7f4af152e8b2fa9cb6"))
    try check(
      SHA512.self,
      HMACVector(
        name: "RFC 4231 case 1", key: shortKey, message: shortMessage,
        tag: "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
          + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"))
    try check(
      SHA384.self,
      HMACVector(
        name: "RFC 4231 case 6", key: longKey, message: longMessage,
        tag: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c6"
          + "0c2ef6ab4030fe8296248df163f44952"))
    try check(
      SHA512.self,
      HMACVector(
        name: "RFC 4231 case 6", key: longKey, message: longMessage,
        tag: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
          + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"))
  }

  @Test func rejectsAnyFlippedBitAndWrongKeyOrMessage() {
    let key = Array("secret".utf8)
    let message = Array("header.payload".utf8)
    let tag = HMAC<SHA256>.authenticationCode(for: message, using: key)
    for bit in 0..<(tag.count * 8) {
      var forged = tag
      forged[bit / 8] ^= 1 << (bit % 8)
      #expect(!HMAC<SHA256>.isValidAuthenticationCode(forged, for: message, using: key))
    }
    #expect(!HMAC<SHA256>.isValidAuthenticationCode(tag, for: message, using: Array("secreT".utf8)))
    #expect(!HMAC<SHA256>.isValidAuthenticationCode(tag, for: message + [0], using: key))
    #expect(!HMAC<SHA256>.isValidAuthenticationCode([UInt8](), for: message, using: key))
    #expect(!HMAC<SHA256>.isValidAuthenticationCode(tag + [0], for: message, using: key))
  }

  /// Keys exactly one block long are used as-is; one byte more and they must be hashed.
  @Test func keyLengthAroundBlockSize() {
    let message = Array("m".utf8)
    let blockKey = [UInt8](repeating: 0x42, count: 64)
    let longKey = [UInt8](repeating: 0x42, count: 65)
    #expect(
      HMAC<SHA256>.authenticationCode(for: message, using: longKey)
        == HMAC<SHA256>.authenticationCode(for: message, using: SHA256.hash(longKey)))
    #expect(
      HMAC<SHA256>.authenticationCode(for: message, using: blockKey)
        != HMAC<SHA256>.authenticationCode(for: message, using: SHA256.hash(blockKey)))
  }

  @Test func finalizeLeavesMACUsable() {
    var mac = HMAC<SHA256>(key: Array("k".utf8))
    mac.update(Array("ab".utf8))
    #expect(
      mac.finalize()
        == HMAC<SHA256>.authenticationCode(for: Array("ab".utf8), using: Array("k".utf8)))
    mac.update(Array("c".utf8))
    #expect(
      mac.finalize()
        == HMAC<SHA256>.authenticationCode(for: Array("abc".utf8), using: Array("k".utf8)))
  }
}
