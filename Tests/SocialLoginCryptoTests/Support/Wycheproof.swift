// Loader for Project Wycheproof JSON vectors (Resources/wycheproof, Apache-2.0, see LICENSE).
//
// One generic shape covers every file we ship: group- and test-level fields that only some
// algorithms use are optional, so MAC, AEAD, RSA and ECDSA suites can share this decoder.

import Foundation
import Testing

struct WycheproofFile: Decodable, Sendable {
  let algorithm: String
  let numberOfTests: Int
  let testGroups: [WycheproofTestGroup]

  /// Loads `Resources/wycheproof/<name>.json` from the test bundle.
  static func load(_ name: String) throws -> WycheproofFile {
    let url = try #require(
      Bundle.module.url(
        forResource: name, withExtension: "json", subdirectory: "Resources/wycheproof"),
      "missing Wycheproof resource \(name).json"
    )
    return try JSONDecoder().decode(WycheproofFile.self, from: Data(contentsOf: url))
  }

  /// Every test paired with its group, the usual unit of iteration.
  var allTests: [(group: WycheproofTestGroup, test: WycheproofTest)] {
    testGroups.flatMap { group in group.tests.map { (group, $0) } }
  }
}

struct WycheproofTestGroup: Decodable, Sendable {
  let type: String?
  /// Key size in bits (MAC key, RSA modulus or EC field).
  let keySize: Int?
  /// MAC tag size in bits; tags are the leftmost `tagSize / 8` bytes of the full MAC.
  let tagSize: Int?
  /// Hash name such as `"SHA-256"` for signature groups.
  let sha: String?
  /// AEAD nonce size in bits.
  let ivSize: Int?
  let publicKey: WycheproofPublicKey?
  let publicKeyDer: String?
  let publicKeyAsn: String?
  let publicKeyPem: String?
  let tests: [WycheproofTest]
}

/// The union of RSA (`modulus`, `publicExponent`) and EC (`curve`, `wx`, `wy`, ...) key fields.
struct WycheproofPublicKey: Decodable, Sendable {
  let type: String?
  let curve: String?
  let keySize: Int?
  let uncompressed: String?
  let wx: String?
  let wy: String?
  let modulus: String?
  let publicExponent: String?
}

struct WycheproofTest: Decodable, Sendable {
  enum Result: String, Decodable, Sendable {
    case valid
    case invalid
    /// Legal but discouraged inputs; suites decide per algorithm whether to accept them.
    case acceptable
  }

  let tcId: Int
  let comment: String
  let flags: [String]
  let result: Result
  let msg: String?
  let sig: String?
  let key: String?
  let tag: String?
  /// AEAD nonce, associated data and ciphertext (without the tag).
  let iv: String?
  let aad: String?
  let ct: String?

  var messageBytes: [UInt8] { get throws { try [UInt8](hex: msg ?? "") } }
  var signatureBytes: [UInt8] { get throws { try [UInt8](hex: sig ?? "") } }
  var keyBytes: [UInt8] { get throws { try [UInt8](hex: key ?? "") } }
  var tagBytes: [UInt8] { get throws { try [UInt8](hex: tag ?? "") } }
  var nonceBytes: [UInt8] { get throws { try [UInt8](hex: iv ?? "") } }
  var associatedDataBytes: [UInt8] { get throws { try [UInt8](hex: aad ?? "") } }
  var ciphertextBytes: [UInt8] { get throws { try [UInt8](hex: ct ?? "") } }

  /// Identifies the vector in expectation failures.
  var label: String { "tcId \(tcId) (\(comment)) \(flags)" }
}
