import Foundation
import SocialLoginCrypto

/// Reads the RSA public key of one of Google's PEM certificates for Firebase ID tokens.
///
/// Strict on purpose: one `CERTIFICATE` block and nothing but white space around it, canonical
/// base64, and DER that the reader consumes exactly (definite minimal lengths, no bytes after
/// the certificate, an `rsaEncryption` SubjectPublicKeyInfo whose BIT STRING holds exactly one
/// `RSAPublicKey`). A certificate that fails any of this is skipped, never half-used.
enum FirebaseCertificate {
  /// The key of `pem` as a JWK restricted to `RS256` and named `keyID`.
  static func key(keyID: String, pem: String) throws(JOSEError) -> JWK {
    let der = try derBytes(pem: pem)
    let (modulus, exponent) = try rsaPublicKey(certificate: der)
    let json: JSONValue = [
      "kty": "RSA", "kid": .string(keyID), "alg": "RS256", "use": "sig",
      "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent)),
    ]
    return try JWK(validating: json)
  }

  /// The DER bytes of a single PEM `CERTIFICATE` block.
  static func derBytes(pem: String) throws(JOSEError) -> [UInt8] {
    let begin = "-----BEGIN CERTIFICATE-----"
    let end = "-----END CERTIFICATE-----"
    let text = pem.trimmingCharacters(in: .whitespacesAndNewlines)
    guard text.hasPrefix(begin), text.hasSuffix(end), text.count > begin.count + end.count else {
      throw JOSEError(.invalidKey, "The certificate is not one PEM CERTIFICATE block.")
    }
    let body = text.dropFirst(begin.count).dropLast(end.count)
    let base64 = body.filter { !$0.isWhitespace }
    guard !base64.contains("-"), let bytes = Base64.decode(base64), !bytes.isEmpty else {
      throw JOSEError(.invalidKey, "The certificate's PEM body is not base64.")
    }
    return bytes
  }

  /// The modulus and exponent of the certificate's `rsaEncryption` SubjectPublicKeyInfo.
  static func rsaPublicKey(certificate der: [UInt8]) throws(JOSEError) -> ([UInt8], [UInt8]) {
    do throws(DERError) {
      var top = DERReader(der)
      var certificate = try top.read(tag: 0x30).reader
      try top.finish()
      var tbs = try certificate.read(tag: 0x30).reader
      _ = try certificate.read(tag: 0x30)  // signatureAlgorithm
      _ = try certificate.read(tag: 0x03)  // signatureValue
      try certificate.finish()
      if tbs.peekTag == 0xA0 { _ = try tbs.read(tag: 0xA0) }  // version
      _ = try tbs.read(tag: 0x02)  // serialNumber
      for _ in 0..<4 { _ = try tbs.read(tag: 0x30) }  // signature, issuer, validity, subject
      var spki = try tbs.read(tag: 0x30).reader
      var algorithm = try spki.read(tag: 0x30).reader
      let oid = try algorithm.read(tag: 0x06).content
      guard oid == [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01] else {
        throw DERError("the certificate's key is not rsaEncryption")
      }
      if !algorithm.isAtEnd { _ = try algorithm.read(tag: 0x05) }
      try algorithm.finish()
      let bits = try spki.read(tag: 0x03).content
      try spki.finish()
      guard bits.first == 0 else { throw DERError("the public key BIT STRING has unused bits") }
      var keyReader = DERReader(Array(bits.dropFirst()))
      var rsaKey = try keyReader.read(tag: 0x30).reader
      try keyReader.finish()
      let modulus = try rsaKey.readPositiveInteger()
      let exponent = try rsaKey.readPositiveInteger()
      try rsaKey.finish()
      return (modulus, exponent)
    } catch {
      throw JOSEError(.invalidKey, "The certificate is not strict DER X.509: \(error.problem).")
    }
  }
}

/// Why ``DERReader`` refused its input.
struct DERError: Error {
  let problem: String
  init(_ problem: String) { self.problem = problem }
}

/// A strict DER TLV reader over a byte array (X.509 subset: single-byte tags).
struct DERReader {
  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { index == bytes.count }
  var peekTag: UInt8? { isAtEnd ? nil : bytes[index] }

  /// Requires that every byte was consumed.
  func finish() throws(DERError) {
    guard isAtEnd else { throw DERError("\(bytes.count - index) unexpected trailing bytes") }
  }

  /// Reads one element with `tag`, returning its content and a reader over it.
  mutating func read(tag: UInt8) throws(DERError) -> (content: [UInt8], reader: DERReader) {
    guard index < bytes.count else { throw DERError("missing element") }
    guard bytes[index] == tag else { throw DERError("unexpected tag") }
    index += 1
    guard index < bytes.count else { throw DERError("missing length") }
    let first = bytes[index]
    index += 1
    var length = 0
    if first < 0x80 {
      length = Int(first)
    } else {
      let count = Int(first & 0x7F)
      guard count >= 1, count <= 4 else { throw DERError("unsupported length encoding") }
      guard index + count <= bytes.count else { throw DERError("truncated length") }
      guard bytes[index] != 0 else { throw DERError("non-minimal length") }
      for _ in 0..<count {
        length = length << 8 | Int(bytes[index])
        index += 1
      }
      guard length >= 0x80 else { throw DERError("non-minimal length") }
    }
    guard length <= bytes.count - index else { throw DERError("truncated element") }
    let content = Array(bytes[index..<(index + length)])
    index += length
    return (content, DERReader(content))
  }

  /// Reads a positive, minimally encoded INTEGER and returns its magnitude.
  mutating func readPositiveInteger() throws(DERError) -> [UInt8] {
    let content = try read(tag: 0x02).content
    guard let first = content.first else { throw DERError("empty INTEGER") }
    guard first & 0x80 == 0 else { throw DERError("negative INTEGER") }
    if first == 0, content.count > 1, content[1] & 0x80 == 0 {
      throw DERError("non-minimal INTEGER")
    }
    return Array(content.drop { $0 == 0 })
  }
}
