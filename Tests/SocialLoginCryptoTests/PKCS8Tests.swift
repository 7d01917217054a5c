import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct PKCS8Tests {
  static let key =
    (try? P256PrivateKey(rawRepresentation: Array(repeating: 0x2A, count: 32)))
    ?? P256PrivateKey()

  func der(_ pem: String) -> [UInt8] {
    let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    return Base64.decode(body) ?? []
  }

  @Test func aWrittenKeyReadsBack() throws {
    let pem = Self.key.pkcs8PEM
    #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    let read = try P256PrivateKey(pkcs8PEM: pem)
    #expect(read.rawRepresentation == Self.key.rawRepresentation)
    #expect(read.publicKey.x963Representation == Self.key.publicKey.x963Representation)
  }

  /// A key made by `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256` (the
  /// PKCS #8 form of an Apple `.p8`), with the public key `openssl pkey -pubout` printed.
  @Test func anOpenSSLKeyIsRead() throws {
    let pem = """
      -----BEGIN PRIVATE KEY-----
      MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgdktHX3DUh67zI1ao
      hkq0jrIMrSdaBDmq08BATCV5mg2hRANCAATYPAdgaSeiJjPA5Z20Dqmxp+di6u1X
      NV54cIZasJGKJy9G/ZTjQZft7PruTtIrW6+H7gHXX8mt2YYRaLJDtWN7
      -----END PRIVATE KEY-----

      """
    let key = try P256PrivateKey(pkcs8PEM: pem)
    let expected =
      "04d83c07606927a22633c0e59db40ea9b1a7e762eaed57355e7870865ab0918a272f46fd94e34197edec"
      + "faee4ed22b5baf87ee01d75fc9add9861168b243b5637b"
    let hex = key.publicKey.x963Representation.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }.joined()
    #expect(hex == expected)
    // And the writer produces exactly OpenSSL's encoding.
    #expect(key.pkcs8PEM == pem)
  }

  @Test func malformedInputsHaveTheirOwnErrors() throws {
    var bytes = der(Self.key.pkcs8PEM)
    func pem(_ der: [UInt8]) -> String {
      "-----BEGIN PRIVATE KEY-----\n\(Base64.encode(der))\n-----END PRIVATE KEY-----"
    }
    func error(_ text: String) -> PKCS8Error? {
      do {
        _ = try P256PrivateKey(pkcs8PEM: text)
        return nil
      } catch { return error }
    }
    #expect(error(pem(bytes)) == nil)
    if case .invalidPEM? = error(
      "-----BEGIN EC PRIVATE KEY-----\nAA==\n-----END EC PRIVATE KEY-----")
    {
    } else {
      Issue.record("A SEC1 block is not refused as PEM")
    }
    if case .malformedDER? = error(pem(Array(bytes.dropLast(3)))) {
    } else {
      Issue.record("Truncated DER is not malformedDER")
    }
    // version 0 → 1
    var version = bytes
    version[5] = 1
    #expect(error(pem(version)) == .unsupportedVersion)
    // id-ecPublicKey …2.1 → …2.2
    var algorithm = bytes
    algorithm[16] = 2
    #expect(error(pem(algorithm)) == .unsupportedKeyAlgorithm("1.2.840.10045.2.2"))
    // prime256v1 …3.1.7 → …3.1.8
    var curve = bytes
    curve[26] = 8
    #expect(error(pem(curve)) == .unsupportedCurve("1.2.840.10045.3.1.8"))
    // A flipped byte of the stored public key.
    bytes[bytes.count - 1] ^= 1
    #expect(error(pem(bytes)) == .publicKeyMismatch)
    // A zero scalar.
    var zero = der(Self.key.pkcs8PEM)
    for index in 36..<68 { zero[index] = 0 }
    if case .invalidKey? = error(pem(zero)) {
    } else {
      Issue.record("A zero scalar is not invalidKey")
    }
  }
}
