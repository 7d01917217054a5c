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

/// The emulator's signing keys, generated once per emulator on first use (RSA key generation
/// is slow in debug builds), and JWT encoding.
final class EmulatorKeys: Sendable {
  enum SigningError: Error {
    case unavailable(String)
  }

  /// A compact JWS of `claims`, or `nil` when the algorithm is not available in this build.
  func jwt(_ claims: [String: JSONValue], signing: EmulatorSigning) throws -> String {
    switch signing {
    case .hs256(let secret):
      let header: JSONValue = ["alg": "HS256", "typ": "JWT"]
      let input = try Self.signingInput(header: header, claims: .object(claims))
      let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: Array(secret.utf8))
      return input + "." + Base64URL.encode(mac)
    case .es256:
      throw SigningError.unavailable("ES256")
    case .rs256:
      throw SigningError.unavailable("RS256")
    }
  }

  /// The public keys of `algorithms` as a JWKS document (`{"keys":[...]}`).
  func jwks(_ algorithms: [EmulatorSigning]) -> JSONValue {
    ["keys": .array([])]
  }

  /// The claims of a compact JWS, without checking anything (for tokens the emulator made).
  static func claims(of token: String) throws -> [String: JSONValue] {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3,
      case .object(let claims)? = EmulatorJSON.decode(try Base64URL.decode(parts[1]))
    else { throw SigningError.unavailable("not a JWS") }
    return claims
  }

  static func signingInput(header: JSONValue, claims: JSONValue) throws -> String {
    let encoder = EmulatorJSON.encoder
    return Base64URL.encode(try encoder.encode(header)) + "."
      + Base64URL.encode(try encoder.encode(claims))
  }
}
