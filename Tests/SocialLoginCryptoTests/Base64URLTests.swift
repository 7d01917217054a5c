import SocialLoginCrypto
import TestPacing
import Testing

/// An independent, deliberately naive encoder (bit by bit) to check the optimized one against.
private func referenceBase64(_ bytes: [UInt8], alphabet: String, padded: Bool) -> String {
  let symbols = Array(alphabet)
  var bits: [Bool] = []
  for byte in bytes {
    for shift in (0..<8).reversed() {
      bits.append((byte >> UInt8(shift)) & 1 == 1)
    }
  }
  var output = ""
  var index = 0
  while index < bits.count {
    var value = 0
    for offset in 0..<6 {
      value <<= 1
      if index + offset < bits.count, bits[index + offset] {
        value |= 1
      }
    }
    output.append(symbols[value])
    index += 6
  }
  if padded {
    while output.count % 4 != 0 {
      output.append("=")
    }
  }
  return output
}

private let urlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
private let standardAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

/// RFC 4648 §10, in the unpadded url alphabet (identical symbols for these inputs).
private let rfc4648: [(String, String)] = [
  ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
  ("foobar", "Zm9vYmFy"),
]

@Suite(.heavy, .timeLimit(.minutes(10))) struct Base64URLTests {
  @Test func rfc4648Vectors() throws {
    for (plain, encoded) in rfc4648 {
      #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
      #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
    }
  }

  @Test func urlAlphabetReplacesPlusAndSlash() throws {
    #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    #expect(try Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
    #expect(try Base64URL.decode("-_8") == [0xFB, 0xFF])
  }

  @Test func roundTripsLengthsZeroThroughSeventy() throws {
    var generator = SplitMix64(seed: 7)
    for length in 0...70 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let encoded = Base64URL.encode(bytes)
      #expect(encoded == referenceBase64(bytes, alphabet: urlAlphabet, padded: false))
      #expect(encoded.utf8.count == (length * 4 + 2) / 3)
      #expect(try Base64URL.decode(encoded) == bytes)
      // Non-contiguous input takes the copying path.
      #expect(Base64URL.encode(bytes.lazy.map { $0 }) == encoded)
      // Substrings decode in place and must not see the surrounding text.
      let framed = "." + encoded + "."
      let inner = framed.dropFirst().dropLast()
      #expect(try Base64URL.decode(inner) == bytes)
    }
  }

  @Test func rejectsPadding() {
    #expect(throws: Base64URLError.invalidCharacter(offset: 2)) { try Base64URL.decode("Zg==") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 3)) { try Base64URL.decode("Zm8=") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 4)) { try Base64URL.decode("Zm9v====") }
  }

  @Test func rejectsStandardAlphabet() {
    #expect(throws: Base64URLError.invalidCharacter(offset: 0)) { try Base64URL.decode("+/8") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 2)) { try Base64URL.decode("ab/c") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 5)) { try Base64URL.decode("Zm9vY+") }
  }

  @Test func rejectsWhitespace() {
    #expect(throws: Base64URLError.invalidCharacter(offset: 2)) { try Base64URL.decode("Zm 9v") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 4)) { try Base64URL.decode("Zm9v\n") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 0)) { try Base64URL.decode("\tZm9v") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 4)) {
      try Base64URL.decode("Zm9v\r\nYmFy")
    }
  }

  @Test func rejectsEveryASCIICharacterOutsideTheAlphabet() {
    let allowed = Set(urlAlphabet.utf8)
    for byte in UInt8(0)...127 where !allowed.contains(byte) {
      let text = "Zm9v" + String(decoding: [byte], as: UTF8.self) + "mFy"
      #expect(throws: Base64URLError.invalidCharacter(offset: 4), "byte \(byte)") {
        try Base64URL.decode(text)
      }
    }
  }

  @Test func reportsUTF8OffsetOfNonASCII() {
    #expect(throws: Base64URLError.invalidCharacter(offset: 3)) { try Base64URL.decode("Zm9é") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 0)) { try Base64URL.decode("€") }
  }

  @Test func rejectsLengthOneModFour() {
    #expect(throws: Base64URLError.invalidLength) { try Base64URL.decode("Z") }
    #expect(throws: Base64URLError.invalidLength) { try Base64URL.decode("Zm9vY") }
    #expect(throws: Base64URLError.invalidLength) { try Base64URL.decode("Zm9vYmFyZ") }
  }

  @Test func invalidCharacterIsReportedBeforeLength() {
    #expect(throws: Base64URLError.invalidCharacter(offset: 3)) { try Base64URL.decode("abc=e") }
    #expect(throws: Base64URLError.invalidCharacter(offset: 4)) { try Base64URL.decode("abcd=") }
  }

  /// Exactly one final character per value is canonical: the one whose unused bits are zero.
  @Test func rejectsNonCanonicalTrailingBits() throws {
    for (value, symbol) in urlAlphabet.enumerated() {
      let twoCharacters = "Z" + String(symbol)
      let threeCharacters = "Zm" + String(symbol)
      if value & 0x0F == 0 {
        #expect(try Base64URL.decode(twoCharacters).count == 1)
      } else {
        #expect(throws: Base64URLError.nonCanonicalTrailingBits, "\(twoCharacters)") {
          try Base64URL.decode(twoCharacters)
        }
      }
      if value & 0x03 == 0 {
        #expect(try Base64URL.decode(threeCharacters).count == 2)
      } else {
        #expect(throws: Base64URLError.nonCanonicalTrailingBits, "\(threeCharacters)") {
          try Base64URL.decode(threeCharacters)
        }
      }
    }
    // "Zh" would decode to "f" if the stray low bit were ignored.
    #expect(throws: Base64URLError.nonCanonicalTrailingBits) { try Base64URL.decode("Zh") }
    #expect(throws: Base64URLError.nonCanonicalTrailingBits) { try Base64URL.decode("Zm9") }
  }
}

@Suite(.heavy, .timeLimit(.minutes(10))) struct Base64Tests {
  @Test func rfc4648PaddedVectors() {
    let expected = ["", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"]
    for ((plain, _), encoded) in zip(rfc4648, expected) {
      #expect(Base64.encode(Array(plain.utf8)) == encoded)
      #expect(Base64.decode(encoded) == Array(plain.utf8))
    }
  }

  @Test func encodeMatchesReferenceAndRoundTrips() {
    var generator = SplitMix64(seed: 11)
    for length in 0...70 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let encoded = Base64.encode(bytes)
      #expect(encoded == referenceBase64(bytes, alphabet: standardAlphabet, padded: true))
      #expect(Base64.decode(encoded) == bytes)
      #expect(Base64.decode(encoded.filter { $0 != "=" }) == bytes)
    }
  }

  @Test func httpBasicCredentials() {
    // RFC 7617 §2 example.
    #expect(Base64.encode(Array("Aladdin:open sesame".utf8)) == "QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
  }

  @Test func lenientDecodeSkipsWhitespace() {
    #expect(Base64.decode("Zm9v\nYmFy\r\n") == Array("foobar".utf8))
    #expect(Base64.decode(" Zm9v Yg= = ") == Array("foob".utf8))
    #expect(Base64.decode("+/8=") == [0xFB, 0xFF])
  }

  @Test func lenientDecodeStillRejectsGarbage() {
    #expect(Base64.decode("Zm9v*") == nil)
    #expect(Base64.decode("-_8") == nil)
    #expect(Base64.decode("Zg=a") == nil)
    #expect(Base64.decode("Zg===") == nil)
    #expect(Base64.decode("Zm9v=") == nil)
    #expect(Base64.decode("Z") == nil)
    #expect(Base64.decode("Z===") == nil)
  }
}
