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

  private struct Signers: Sendable {
    var es256: JWSSigner?
    var rs256: JWSSigner?
  }

  /// The key ids, stable for an emulator's lifetime.
  let es256KeyID = "emulator-es256-" + SecureRandom.urlSafeToken(byteCount: 6)
  let rs256KeyID = "emulator-rs256-" + SecureRandom.urlSafeToken(byteCount: 6)

  private func signer(_ signing: EmulatorSigning) -> JWSSigner {
    switch signing {
    case .hs256(let secret):
      return .hs256(secret: Array(secret.utf8))
    case .es256:
      return signers.withLock { signers in
        if let signer = signers.es256 { return signer }
        let signer = JWSSigner.es256(P256PrivateKey(), keyID: es256KeyID)
        signers.es256 = signer
        return signer
      }
    case .rs256:
      // Generated (or fetched) outside the lock: the first call may take a while.
      if let signer = signers.withLock({ $0.rs256 }) { return signer }
      let signer = Self.makeRSASigner(keyID: rs256KeyID)
      return signers.withLock { signers in
        if let existing = signers.rs256 { return existing }
        signers.rs256 = signer
        return signer
      }
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
    signers.withLock { signers in
      if signers.rs256 == nil { signers.rs256 = signer }
    }
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

  /// A compact JWS (JWT) of `claims`.
  func jwt(_ claims: [String: JSONValue], signing: EmulatorSigning) throws -> String {
    try signer(signing).signJWT(claims: claims)
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
