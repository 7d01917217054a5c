import Foundation
import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(3))) struct X509CertificateTests {
  static func pem(_ name: String) throws -> String {
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: "pem", subdirectory: "Resources/x509"),
      "missing resource \(name).pem")
    return try String(contentsOf: url, encoding: .utf8)
  }

  struct Expected: Decodable {
    let notBefore: Int64
    let notAfter: Int64
    let modulus: String?
    let x963: String?
  }

  static func expected(_ file: String) throws -> Expected {
    let url = try #require(
      Bundle.module.url(
        forResource: "expected", withExtension: "json", subdirectory: "Resources/x509"))
    let all = try JSONDecoder().decode([String: Expected].self, from: Data(contentsOf: url))
    return try #require(all[file])
  }

  static func der(_ name: String) throws -> [UInt8] {
    try X509Certificate(pemEncoded: try pem(name)).derRepresentation
  }

  @Test(arguments: ["rsa2048", "rsa2048-generalized-time"])
  func rsaCertificatesGiveOpenSSLsModulusAndDates(name: String) throws {
    let certificate = try X509Certificate(pemEncoded: try Self.pem(name))
    let expected = try Self.expected(name + ".pem")
    let key = try certificate.rsaPublicKey()
    #expect(key.modulusBitCount == 2048)
    #expect(key.modulus.hex == expected.modulus)
    #expect(key.exponent == [0x01, 0x00, 0x01])
    #expect(certificate.notBefore == expected.notBefore)
    #expect(certificate.notAfter == expected.notAfter)
  }

  @Test func p256CertificateGivesItsPoint() throws {
    let certificate = try X509Certificate(pemEncoded: try Self.pem("ec-p256"))
    let expected = try Self.expected("ec-p256.pem")
    guard case .p256(let key) = certificate.publicKey else {
      Issue.record("not parsed as P-256")
      return
    }
    #expect(key.x963Representation.hex == expected.x963)
    #expect(certificate.notAfter == expected.notAfter)
    #expect(throws: X509Error.notRSA) { try certificate.rsaPublicKey() }
  }

  @Test func otherCurvesAreRefusedByName() throws {
    #expect(throws: X509Error.unsupportedCurve("1.3.132.0.34")) {
      try X509Certificate(pemEncoded: try Self.pem("ec-p384"))
    }
  }

  @Test func trailingGarbageAndTruncationAreRefused() throws {
    #expect(throws: X509Error.malformedDER(.trailingBytes(count: 2))) {
      try X509Certificate(pemEncoded: try Self.pem("rsa2048-trailing-der-bytes"))
    }
    #expect(throws: X509Error.malformedDER(.truncated)) {
      try X509Certificate(pemEncoded: try Self.pem("rsa2048-truncated"))
    }
    let error = try #require(throws: X509Error.self) {
      try X509Certificate(pemEncoded: try Self.pem("rsa2048-trailing-text"))
    }
    guard case .invalidPEM = error else {
      Issue.record("expected invalidPEM, got \(error)")
      return
    }
    // Every strict prefix of the DER is refused, never crashes.
    let der = try Self.der("rsa2048")
    for length in stride(from: 0, to: der.count, by: 7) {
      #expect(throws: X509Error.self) { try X509Certificate(derEncoded: Array(der[..<length])) }
    }
  }

  @Test func pemFramingIsStrict() throws {
    let good = try Self.pem("rsa2048")
    #expect(throws: Never.self) { try X509Certificate(pemEncoded: "\n\r\n  " + good + "\n\n") }
    let body = good.replacingOccurrences(of: "-----BEGIN CERTIFICATE-----", with: "")
    for text in [
      "", body, good.replacingOccurrences(of: "CERTIFICATE", with: "PUBLIC KEY"), good + good,
      "x" + good, good.replacingOccurrences(of: "M", with: "*"),
    ] {
      let error = try #require(throws: X509Error.self) { try X509Certificate(pemEncoded: text) }
      guard case .invalidPEM = error else {
        Issue.record("expected invalidPEM, got \(error)")
        continue
      }
    }
  }

  @Test func nonMinimalAndIndefiniteLengthsAreRefused() throws {
    let der = try Self.der("rsa2048")
    // The outer SEQUENCE uses 0x82 LL LL; re-encode the same length with three bytes.
    #expect(der[0] == 0x30 && der[1] == 0x82)
    let longer = [0x30, 0x83, 0x00] + der[2...]
    #expect(throws: X509Error.malformedDER(.nonMinimalLength)) {
      try X509Certificate(derEncoded: Array(longer))
    }
    // An indefinite length with an end-of-contents marker (valid BER, not DER).
    let indefinite = [0x30, 0x80] + der[4...] + [0x00, 0x00]
    #expect(throws: X509Error.malformedDER(.indefiniteLength)) {
      try X509Certificate(derEncoded: Array(indefinite))
    }
    // A long form for a short length: 0x81 0x05 instead of 0x05.
    var reader = DERReader([0x30, 0x81, 0x05, 1, 2, 3, 4, 5])
    #expect(throws: DERError.nonMinimalLength) { try reader.sequence() }
    var zeroLed = DERReader([0x30, 0x82, 0x00, 0x85] + [UInt8](repeating: 0, count: 0x85))
    #expect(throws: DERError.nonMinimalLength) { try zeroLed.sequence() }
    var highTag = DERReader([0x1F, 0x01, 0x00])
    #expect(throws: DERError.highTagNumber) { try highTag.readElement() }
  }

  @Test func aDifferentKeyAlgorithmIsRefusedByName() throws {
    var der = try Self.der("rsa2048")
    // rsaEncryption (…1.1.1) → RSASSA-PSS (…1.1.10), in the SubjectPublicKeyInfo only.
    let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    let index = try #require(
      (0...(der.count - oid.count)).first { Array(der[$0..<($0 + oid.count)]) == oid })
    der[index + oid.count - 1] = 0x0A
    #expect(throws: X509Error.unsupportedKeyAlgorithm("1.2.840.113549.1.1.10")) {
      try X509Certificate(derEncoded: der)
    }
  }

  @Test func derIntegersAndTimesAreStrict() throws {
    var nonMinimal = DERReader([0x02, 0x02, 0x00, 0x01])
    #expect(throws: DERError.nonMinimalInteger) { try nonMinimal.integerBytes() }
    var negative = DERReader([0x02, 0x01, 0x80])
    #expect(throws: DERError.nonPositiveInteger) { try negative.positiveIntegerBytes() }
    var positive = DERReader([0x02, 0x02, 0x00, 0x80])
    #expect(try positive.positiveIntegerBytes() == [0x80])
    func time(_ text: String, tag: UInt8 = 0x17) throws -> Int64 {
      var reader = DERReader([tag, UInt8(text.utf8.count)] + Array(text.utf8))
      return try reader.time()
    }
    #expect(try time("700101000000Z") == 0)
    #expect(try time("491231235959Z") == 2_524_607_999)
    #expect(try time("20500101000000Z", tag: 0x18) == 2_524_608_000)
    #expect(try time("20240229120000Z", tag: 0x18) == 1_709_208_000)
    for bad in [
      "700101000000", "700101000000+0000", "701301000000Z", "700230000000Z",
      "700101240000Z", "7001010000Z", "70010100000aZ",
    ] {
      #expect(throws: DERError.invalidTime, "\(bad)") { try time(bad) }
    }
    #expect(throws: DERError.invalidTime) { try time("20230229120000Z", tag: 0x18) }
  }
}
