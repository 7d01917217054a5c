import SocialLoginCrypto
import Testing

/// The AEADs against RFC 8439 §2.8.2 and draft-irtf-cfrg-xchacha A.3.1, their size checks, and
/// randomized round trips where any flipped bit must fail authentication.
@Suite struct ChaCha20Poly1305Tests {
  static let key = [UInt8](0x80...0x9F)
  static let associatedData = [UInt8](
    [0x50, 0x51, 0x52, 0x53, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7])
  static let sunscreen = Array(
    "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
      .utf8)

  /// The kind of ``AEADError`` `body` throws, or `nil` when it succeeds.
  static func failure(_ body: () throws -> [UInt8]) -> AEADError.Kind? {
    do {
      _ = try body()
      return nil
    } catch let error as AEADError {
      return error.kind
    } catch {
      return nil
    }
  }

  @Test func rfc8439Section2_8_2() throws {
    let nonce = try [UInt8](hex: "070000004041424344454647")
    let sealed = try ChaCha20Poly1305.seal(
      Self.sunscreen, key: Self.key, nonce: nonce, authenticating: Self.associatedData)
    #expect(
      sealed.hex
        == "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
        + "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
        + "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
        + "3ff4def08e4b7a9de576d26586cec64b6116" + "1ae10b594f09e26a7e902ecbd0600691")
    let opened = try ChaCha20Poly1305.open(
      sealed, key: Self.key, nonce: nonce, authenticating: Self.associatedData)
    #expect(opened == Self.sunscreen)
  }

  @Test func xChaChaDraftAppendixA3_1() throws {
    let nonce = try [UInt8](hex: "404142434445464748494a4b4c4d4e4f5051525354555657")
    let sealed = try XChaCha20Poly1305.seal(
      Self.sunscreen, key: Self.key, nonce: nonce, authenticating: Self.associatedData)
    #expect(
      sealed.hex
        == "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
        + "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
        + "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
        + "21f9664c97637da9768812f615c68b13b52e" + "c0875924c1c7987947deafd8780acf49")
    let opened = try XChaCha20Poly1305.open(
      sealed, key: Self.key, nonce: nonce, authenticating: Self.associatedData)
    #expect(opened == Self.sunscreen)
  }

  /// Messages of several four-block chunks (the stitched ChaCha20/Poly1305 path), against
  /// digests of the output of an independent implementation (Python `cryptography`).
  @Test(arguments: [
    (1024, 13, "a7e269f33d78ba35c88dae11f4e1c89a1f9d959b27399dfc1556e1f5401802cb"),
    (1000, 0, "8e7ac4fb90c698e20affb4ec80b1800990a5985476689ac625b7f4bdf752b6b7"),
    (4099, 40, "7279264ea214469494672b6fe2a638aba86c7803f79fcc6fec0dab8d6821ed6b"),
  ])
  func longMessages(length: Int, associatedDataLength: Int, digest: String) throws {
    let key = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    let nonce = (0..<12).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 5) }
    let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let associatedData = (0..<associatedDataLength).map { UInt8(truncatingIfNeeded: $0 &* 3) }
    let sealed = try ChaCha20Poly1305.seal(
      message, key: key, nonce: nonce, authenticating: associatedData)
    #expect(SHA256.hash(sealed).hex == digest)
    let opened = try ChaCha20Poly1305.open(
      sealed, key: key, nonce: nonce, authenticating: associatedData)
    #expect(opened == message)
  }

  @Test func sizesAreChecked() {
    let nonce12 = [UInt8](repeating: 1, count: 12)
    let nonce24 = [UInt8](repeating: 1, count: 24)
    let shortKey = [UInt8](repeating: 0, count: 31)
    #expect(
      Self.failure {
        try ChaCha20Poly1305.seal([1], key: shortKey, nonce: nonce12, authenticating: [])
      } == .invalidKeySize)
    #expect(
      Self.failure {
        try ChaCha20Poly1305.open(
          [UInt8](repeating: 0, count: 16), key: Self.key, nonce: nonce24, authenticating: [])
      } == .invalidNonceSize)
    #expect(
      Self.failure {
        try XChaCha20Poly1305.seal([1], key: Self.key, nonce: nonce12, authenticating: [])
      } == .invalidNonceSize)
    #expect(
      Self.failure {
        try XChaCha20Poly1305.open([], key: [], nonce: nonce24, authenticating: [])
      } == .invalidKeySize)
    // Shorter than a tag: nothing to authenticate.
    for length in 0..<16 {
      let short = [UInt8](repeating: 0, count: length)
      #expect(
        Self.failure {
          try XChaCha20Poly1305.open(short, key: Self.key, nonce: nonce24, authenticating: [])
        } == .authenticationFailed, "length \(length)")
    }
    do {
      _ = try ChaCha20Poly1305.open(
        [UInt8](repeating: 0, count: 16), key: Self.key, nonce: nonce12, authenticating: [])
      Issue.record("a zero tag opened")
    } catch {
      #expect(error.description.contains("authentication failed"))
    }
  }

  /// Random keys, nonces, data and lengths (0...700, so every code path): each seals and opens
  /// back, and flipping any one bit of the ciphertext, tag, nonce or associated data fails.
  @Test func randomRoundTripsAndBitFlips() throws {
    var random = SplitMix64(seed: 0xAEAD_2026)
    func bytes(_ count: Int) -> [UInt8] {
      (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }
    for round in 0..<60 {
      let extended = round % 2 == 1
      let key = bytes(32)
      let nonce = bytes(extended ? 24 : 12)
      let plaintext = bytes(Int.random(in: 0...700, using: &random))
      let associatedData = bytes(Int.random(in: 0...40, using: &random))
      let seal = extended ? XChaCha20Poly1305.seal : ChaCha20Poly1305.seal
      let open = extended ? XChaCha20Poly1305.open : ChaCha20Poly1305.open
      let sealed = try seal(plaintext, key, nonce, associatedData)
      #expect(sealed.count == plaintext.count + 16)
      #expect(try open(sealed, key, nonce, associatedData) == plaintext)

      func rejects(_ sealed: [UInt8], _ nonce: [UInt8], _ associatedData: [UInt8], _ what: String) {
        #expect(
          Self.failure { try open(sealed, key, nonce, associatedData) } == .authenticationFailed,
          "\(what), round \(round)")
      }
      let sealedBit = Int.random(in: 0..<(sealed.count * 8), using: &random)
      var flipped = sealed
      flipped[sealedBit / 8] ^= 1 << (sealedBit % 8)
      rejects(flipped, nonce, associatedData, "ciphertext/tag bit \(sealedBit)")
      let tagBit = (sealed.count - 16) * 8 + Int.random(in: 0..<128, using: &random)
      flipped = sealed
      flipped[tagBit / 8] ^= 1 << (tagBit % 8)
      rejects(flipped, nonce, associatedData, "tag bit \(tagBit)")
      let nonceBit = Int.random(in: 0..<(nonce.count * 8), using: &random)
      var otherNonce = nonce
      otherNonce[nonceBit / 8] ^= 1 << (nonceBit % 8)
      rejects(sealed, otherNonce, associatedData, "nonce bit \(nonceBit)")
      if !associatedData.isEmpty {
        let dataBit = Int.random(in: 0..<(associatedData.count * 8), using: &random)
        var otherData = associatedData
        otherData[dataBit / 8] ^= 1 << (dataBit % 8)
        rejects(sealed, nonce, otherData, "associated data bit \(dataBit)")
      }
      rejects(sealed, nonce, associatedData + [0], "associated data extended")
      rejects(Array(sealed.dropLast()), nonce, associatedData, "truncated")
    }
  }
}
