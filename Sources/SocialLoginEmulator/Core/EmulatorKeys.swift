import Foundation
import SocialLogin
import SocialLoginCrypto

/// How an emulated provider signs an ID token.
enum EmulatorSigning: Sendable {
  /// HS256 keyed by a shared secret (LINE web login: the channel secret), no `kid`.
  case hs256(secret: String)
  /// ES256 with the emulator's P-256 key, `kid` in the header (LINE native, OIDC).
  case es256
  /// RS256 with the emulator's RSA key, `kid` in the header (Facebook Limited Login, OIDC).
  case rs256
}

/// The emulator's signing keys and JWT encoding. The P-256 key is generated per emulator on
/// first use; the RSA key is the process's shared one (`RSAPrivateKey.perProcess`, generated
/// off the cooperative pool) in release builds and a fixed key in debug builds, because
/// 2048-bit generation takes tens of seconds there and the emulator is for tests.
final class EmulatorKeys: Sendable {
  private let signers = Locked(Signers())

  /// The current keys: each signer is made on first use under the current key id, and
  /// ``rotate()`` replaces them all.
  private struct Signers: Sendable {
    var es256KeyID = EmulatorKeys.newKeyID("es256")
    var rs256KeyID = EmulatorKeys.newKeyID("rs256")
    var es256: JWSSigner?
    var rs256: JWSSigner?
  }

  private static func newKeyID(_ algorithm: String) -> String {
    "emulator-\(algorithm)-" + SecureRandom.urlSafeToken(byteCount: 6)
  }

  /// The current ES256 key id.
  var es256KeyID: String { signers.withLock { $0.es256KeyID } }
  /// The current RS256 key id.
  var rs256KeyID: String { signers.withLock { $0.rs256KeyID } }

  /// Rotates the signing keys, as providers do routinely: new key ids, a new P-256 key, and the
  /// old keys leave every JWKS, so tokens signed before no longer find their key. The RSA key
  /// keeps its material under the new id (one per process; see ``makeRSASigner(keyID:)``).
  /// Returns the new key ids.
  @discardableResult
  func rotate() -> (es256: String, rs256: String) {
    signers.withLock { signers in
      signers = Signers()
      return (signers.es256KeyID, signers.rs256KeyID)
    }
  }

  private func signer(_ signing: EmulatorSigning) -> JWSSigner {
    switch signing {
    case .hs256(let secret):
      return .hs256(secret: Array(secret.utf8))
    case .es256:
      return signers.withLock { signers in
        if let signer = signers.es256 { return signer }
        let signer = JWSSigner.es256(P256PrivateKey(), keyID: signers.es256KeyID)
        signers.es256 = signer
        return signer
      }
    case .rs256:
      // Generated (or fetched) outside the lock: the first call may take a while.
      let (existing, keyID) = signers.withLock { ($0.rs256, $0.rs256KeyID) }
      if let existing { return existing }
      return install(Self.makeRSASigner(keyID: keyID), keyID: keyID)
    }
  }

  /// Keeps `signer` as the RS256 signer unless another was installed meanwhile or the keys
  /// rotated since it was made; returns the signer to use.
  private func install(_ signer: JWSSigner, keyID: String) -> JWSSigner {
    signers.withLock { signers in
      if let existing = signers.rs256 { return existing }
      guard signers.rs256KeyID == keyID else { return signer }
      signers.rs256 = signer
      return signer
    }
  }

  /// Makes sure the RSA key exists, generating it on a thread of its own: generation is long
  /// CPU-bound work (seconds in debug builds) that must not occupy the cooperative pool, where
  /// it would stall every other request and test. Callers await this before RS256 work.
  func prepareRS256() async {
    if signers.withLock({ $0.rs256 != nil }) { return }
    let keyID = rs256KeyID
    let signer = await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(returning: EmulatorKeys.makeRSASigner(keyID: keyID))
      }.start()
    }
    _ = install(signer, keyID: keyID)
  }

  /// The RS256 signer: the fixed key in debug builds (see ``fixedRSAKey``), the process's
  /// generated key otherwise.
  static func makeRSASigner(keyID: String) -> JWSSigner {
    #if DEBUG
      var json = fixedRSAKey.objectValue ?? [:]
      json["kid"] = .string(keyID)
      json["alg"] = "RS256"
      if let signer = try? JWSSigner(privateJWK: .object(json)) { return signer }
    #endif
    return JWSSigner.rs256(RSAPrivateKey.perProcess, keyID: keyID)
  }

  /// A compact JWS (JWT) of `claims`, with `type` as its `typ` (`JWT` by default).
  func jwt(_ claims: [String: JSONValue], signing: EmulatorSigning, type: String = "JWT") throws
    -> String
  {
    try signer(signing).signJWT(claims: claims, header: ["typ": .string(type)])
  }

  /// The public keys of `algorithms` as a JWKS document (`{"keys":[...]}`).
  func jwks(_ algorithms: [EmulatorSigning]) -> JSONValue {
    JWKSet(keys: algorithms.compactMap { signer($0).publicJWK }).publicJSON
  }

  /// The claims of a compact JWS, without checking anything (for tokens the emulator made).
  static func claims(of token: String) throws -> [String: JSONValue] {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3,
      case .object(let claims)? = EmulatorJSON.decode(try Base64URL.decode(parts[1]))
    else { throw AuthError(.invalidToken, "Not a compact JWS.") }
    return claims
  }
}
