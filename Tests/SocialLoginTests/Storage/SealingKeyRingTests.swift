import Foundation
import SocialLoginCrypto
import Testing

@testable import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``SealingKeyRing``, ``SealingKey``, ``RecordSealing`` and their bridge to ``AuthError``.
@Suite(.timeLimit(.minutes(2))) struct SealingKeyRingTests {
  static let secretA = [UInt8](repeating: 0xA1, count: 32)
  static let secretB = [UInt8](repeating: 0xB2, count: 32)
  static let record = Array(#"{"refreshToken":"refresh-token-value"}"#.utf8)
  static let context = Array("session:42".utf8)

  static func key(_ id: String, _ secret: [UInt8]) throws -> SealingKey {
    try SealingKey(id: id, secret: secret)
  }

  /// The error `body` throws, or `nil` when it succeeds.
  static func failure<T>(_ body: () throws -> T) -> SealingError? {
    do {
      _ = try body()
      return nil
    } catch let error as SealingError {
      return error
    } catch {
      Issue.record("not a SealingError: \(error)")
      return nil
    }
  }

  @Test func roundTrip() throws {
    let ring = try SealingKeyRing(sealingKey: Self.key("a", Self.secretA))
    let sealed = ring.seal(Self.record, context: Self.context)
    #expect(SealingKeyRing.isSealed(sealed))
    #expect(Array(sealed.prefix(6)) == Array("SLs1".utf8) + [1, UInt8(ascii: "a")])
    #expect(sealed.count == Self.record.count + 4 + 1 + 1 + 24 + 16)
    #expect(!String(decoding: sealed, as: UTF8.self).contains("refresh-token-value"))
    let opened = try ring.open(sealed, context: Self.context)
    #expect(opened.bytes == Self.record)
    #expect(opened.keyID == "a")
    #expect(!opened.needsReseal)
    // A fresh nonce each time: sealing twice never gives the same bytes.
    #expect(ring.seal(Self.record, context: Self.context) != sealed)
    #expect(try ring.open(ring.seal([], context: []), context: []).bytes == [])
  }

  @Test func contextIsBound() throws {
    let ring = try SealingKeyRing(sealingKey: Self.key("a", Self.secretA))
    let sealed = ring.seal(Self.record, context: Self.context)
    let error = Self.failure { try ring.open(sealed, context: Array("session:43".utf8)) }
    #expect(error?.kind == .tampered)
    #expect(Self.failure { try ring.open(sealed, context: []) }?.kind == .tampered)
  }

  @Test func rotation() throws {
    let a = try Self.key("a", Self.secretA)
    let b = try Self.key("b", Self.secretB)
    let old = try SealingKeyRing(sealingKey: a)
    let sealed = old.seal(Self.record, context: Self.context)

    let rotated = try SealingKeyRing(sealingKey: b, openingAlso: [a])
    #expect(rotated.sealingKeyID == "b")
    #expect(rotated.keyIDs == ["b", "a"])
    let opened = try rotated.open(sealed, context: Self.context)
    #expect(opened.bytes == Self.record)
    #expect(opened.keyID == "a")
    #expect(opened.needsReseal)
    let resealed = rotated.seal(opened.bytes, context: Self.context)
    #expect(try rotated.open(resealed, context: Self.context).needsReseal == false)

    let newOnly = try SealingKeyRing(sealingKey: b)
    let error = Self.failure { try newOnly.open(sealed, context: Self.context) }
    #expect(error?.kind == .sealedWithUnknownKey)
    #expect(error?.keyID == "a")
    #expect(error?.message.contains("\"a\"") == true)
    // The same id with another secret is not the same key: authentication fails.
    let impostor = try SealingKeyRing(sealingKey: Self.key("a", Self.secretB))
    #expect(Self.failure { try impostor.open(sealed, context: Self.context) }?.kind == .tampered)
  }

  @Test func duplicateIDsAreRefused() throws {
    let error = Self.failure {
      try SealingKeyRing(
        sealingKey: Self.key("a", Self.secretA), openingAlso: [Self.key("a", Self.secretB)])
    }
    #expect(error?.kind == .invalidKeyFile)
  }

  @Test func keys() throws {
    #expect(Self.failure { try SealingKey(id: "", secret: Self.secretA) }?.kind == .invalidKey)
    #expect(
      Self.failure { try SealingKey(id: String(repeating: "x", count: 65), secret: Self.secretA) }?
        .kind == .invalidKey)
    #expect(Self.failure { try SealingKey(id: "a b", secret: Self.secretA) }?.kind == .invalidKey)
    #expect(Self.failure { try SealingKey(id: "é", secret: Self.secretA) }?.kind == .invalidKey)
    #expect(
      Self.failure { try SealingKey(id: "a", secret: Array(Self.secretA.prefix(31))) }?.kind
        == .invalidKey)
    let long = try SealingKey(id: String(repeating: "x", count: 64), secret: Self.secretA)
    let ring = try SealingKeyRing(sealingKey: long)
    #expect(try ring.open(ring.seal([1], context: []), context: []).bytes == [1])

    let generated = SealingKey.generate()
    #expect(generated.id.utf8.count == 21)
    #expect(generated.id.hasPrefix("k20"))
    #expect(generated.id.contains("T"))
    #expect(generated != (try SealingKey.generate(id: generated.id)))
    #expect(try SealingKey.generate(id: "named").id == "named")
    #expect(throws: SealingError.self) { try SealingKey.generate(id: "has space") }
    #expect(throws: SealingError.self) { try SealingKey.generate(id: "") }
    let line = generated.keyFileLine
    #expect(line.hasPrefix(generated.id + " "))
    #expect(line.split(separator: " ").last?.count == 43)  // 32 bytes, unpadded
    let parsed = try SealingKeyRing(keyFile: line + "\n")
    #expect(parsed.sealingKeyID == generated.id)
    // Printing or dumping a key never shows its secret.
    let secretText = String(line.split(separator: " ")[1])
    var dumped = ""
    dump(generated, to: &dumped)
    for text in [generated.description, "\(generated)", String(reflecting: generated), dumped] {
      #expect(!text.contains(secretText))
      #expect(!text.contains("secret:"))
    }
    #expect(
      SealingKey.defaultID(now: Date(timeIntervalSince1970: 1_780_000_000)).hasPrefix("k20260528T"))
  }

  // MARK: Key files

  @Test func keyFileParsing() throws {
    let a = try Self.key("key-a_1.x", Self.secretA)
    let b = try Self.key("b", Self.secretB)
    let contents = """
      # sealing keys

        \(a.keyFileLine)\r
      # retired soon
      \tb \(Base64URL.encode(Self.secretB))

      """
    let ring = try SealingKeyRing(keyFile: contents)
    #expect(ring.keyIDs == ["key-a_1.x", "b"])
    #expect(ring.sealingKeyID == "key-a_1.x")
    let sealed = try SealingKeyRing(sealingKey: b).seal(Self.record, context: [])
    #expect(try ring.open(sealed, context: []).needsReseal)
  }

  @Test(
    arguments: [
      ("no keys", "# only a comment\n\n", nil),
      ("one field", "# c\nlonely\n", 2),
      ("three fields", "a \(Base64URL.encode(secretA)) extra", 1),
      ("bad base64url", "\n\na \(Base64URL.encode(secretA).dropLast())+\n", 3),
      ("padded", "a \(Base64.encode(secretA))", 1),
      ("wrong length", "a \(Base64URL.encode(secretA + [1]))", 1),
      ("duplicate id", "a \(Base64URL.encode(secretA))\na \(Base64URL.encode(secretB))", 2),
      ("bad id", "#\nbad/id \(Base64URL.encode(secretA))", 2),
    ] as [(String, String, Int?)])
  func keyFileErrors(name: String, contents: String, line: Int?) {
    let error = Self.failure { try SealingKeyRing(keyFile: contents) }
    #expect(error?.kind == .invalidKeyFile, "\(name)")
    if let line {
      #expect(
        error?.message.contains("line \(line):") == true, "\(name): \(String(describing: error))")
    }
    for secret in [Self.secretA, Self.secretB] {
      let encoded = Base64URL.encode(secret)
      #expect(error?.message.contains(encoded.prefix(12)) == false, "\(name) leaks the secret")
    }
    #expect(error?.message.contains("lonely") == false, "\(name) quotes the line")
  }

  @Test func loadRefusesAKeyFileOthersCanRead() async throws {
    try await withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let path = directory.appendingPathComponent("keys").path
      let key = try Self.key("a", Self.secretA)
      #expect(
        FileManager.default.createFile(atPath: path, contents: Data((key.keyFileLine + "\n").utf8)))
      #expect(chmod(path, 0o644) == 0)
      let error = Self.failure { try SealingKeyRing.load(contentsOf: path) }
      #expect(error?.kind == .invalidKeyFile)
      #expect(error?.message.contains("chmod 600") == true)
      #expect(error?.message.contains("0644") == true)
      #expect(chmod(path, 0o640) == 0)
      #expect(Self.failure { try SealingKeyRing.load(contentsOf: path) }?.kind == .invalidKeyFile)

      #expect(chmod(path, 0o600) == 0)
      let ring = try SealingKeyRing.load(contentsOf: path)
      #expect(ring.keyIDs == ["a"])

      #expect(chmod(path, 0o400) == 0)
      #expect(try SealingKeyRing.load(contentsOf: path).keyIDs == ["a"])

      let missing = Self.failure { try SealingKeyRing.load(contentsOf: path + "-missing") }
      #expect(missing?.kind == .invalidKeyFile)
      // A parse error names the file and the line.
      let broken = directory.appendingPathComponent("broken").path
      #expect(FileManager.default.createFile(atPath: broken, contents: Data("#\nx y\n".utf8)))
      #expect(chmod(broken, 0o600) == 0)
      let parse = Self.failure { try SealingKeyRing.load(contentsOf: broken) }
      #expect(parse?.message.contains(broken) == true)
      #expect(parse?.message.contains("line 2:") == true)
    }
  }

  // MARK: Damaged values

  /// Every prefix of a sealed value, and every single-bit flip, fails with a typed error.
  @Test func everyTruncationAndBitFlipIsATypedError() throws {
    let ring = try SealingKeyRing(sealingKey: Self.key("key-1", Self.secretA))
    let sealed = ring.seal(Array(Self.record.prefix(20)), context: Self.context)
    for length in 0..<sealed.count {
      let error = Self.failure {
        try ring.open(Array(sealed.prefix(length)), context: Self.context)
      }
      let expected: SealingError.Kind = length < 4 ? .notSealed : .tampered
      #expect(error?.kind == expected, "prefix \(length)")
    }
    for bit in 0..<(sealed.count * 8) {
      var flipped = sealed
      flipped[bit / 8] ^= 1 << (bit % 8)
      let error = Self.failure { try ring.open(flipped, context: Self.context) }
      let kind = try #require(error?.kind, "bit \(bit) opened")
      switch bit / 8 {
      case 0..<4: #expect(kind == .notSealed, "bit \(bit)")
      case 4..<10:
        // A length or id byte flipped to another valid id names an unknown key.
        #expect(kind == .tampered || kind == .sealedWithUnknownKey, "bit \(bit)")
      default: #expect(kind == .tampered, "bit \(bit)")
      }
    }
  }

  // MARK: RecordSealing

  @Test func recordSealing() throws {
    let ring = try SealingKeyRing(sealingKey: Self.key("a", Self.secretA))
    let sealing = RecordSealing.keyRing(ring)
    #expect(sealing.isSealing)
    let sealed = sealing.seal(Self.record, context: Self.context)
    #expect(try sealing.open(sealed, context: Self.context).bytes == Self.record)
    #expect(
      Self.failure { try sealing.open(Self.record, context: Self.context) }?.kind == .notSealed)

    let plain = RecordSealing.unsealed
    #expect(!plain.isSealing)
    #expect(plain.seal(Self.record, context: Self.context) == Self.record)
    let opened = try plain.open(Self.record, context: Self.context)
    #expect(opened.bytes == Self.record)
    #expect(opened.keyID.isEmpty)
    #expect(!opened.needsReseal)
    let error = Self.failure { try plain.open(sealed, context: Self.context) }
    #expect(error?.kind == .sealedWithUnknownKey)
    #expect(error?.keyID == "a")
    #expect(
      Self.failure { try plain.open(Array(sealed.prefix(6)), context: []) }?.kind == .tampered)
  }

  @Test func authErrorBridging() throws {
    let ring = try SealingKeyRing(sealingKey: Self.key("b", Self.secretB))
    let other = try SealingKeyRing(sealingKey: Self.key("a", Self.secretA))
    let sealed = other.seal(Self.record, context: [])
    let unknown = try #require(Self.failure { try ring.open(sealed, context: []) })
    let error = AuthError(sealing: unknown, location: "/s/x.json", provider: .twitter)
    #expect(error.code == .storageSealedWithUnknownKey)
    #expect(error.code.rawValue == "storage_sealed_with_unknown_key")
    #expect(error.message.contains("/s/x.json"))
    #expect(error.provider == .twitter)
    #expect(!error.isTransient)
    #expect((error.underlying as? SealingError) == unknown)

    let tampered = try #require(Self.failure { try other.open(sealed, context: [1]) })
    #expect(AuthError(sealing: tampered, location: "k").code == .storageTampered)
    #expect(AuthError.Code.storageTampered.rawValue == "storage_tampered")
    #expect(!AuthError(sealing: tampered, location: "k").isTransient)
    let notSealed = try #require(Self.failure { try other.open([1, 2], context: []) })
    #expect(AuthError(sealing: notSealed, location: "k").code == .storageTampered)
    let badKey = try #require(Self.failure { try SealingKey(id: "", secret: []) })
    #expect(AuthError(sealing: badKey, location: "k").code == .configuration)
  }
}
