import Foundation
import SocialLoginCrypto

extension ProviderID {
  /// A provider id for an OpenID Connect issuer: `oidc-<host>[_<port>]-<hash>`, where the hash
  /// is the first 12 hex digits of the SHA-256 of the issuer URL (without a trailing `/`).
  ///
  /// Sessions and stores are keyed by provider id, so logins with two issuers must not share
  /// one id (a subject of one issuer could otherwise take the session of the same subject
  /// string at the other). The host keeps the id readable; the hash keeps issuers that differ
  /// only in path, port or letter case apart.
  ///
  /// ```swift
  /// let id = ProviderID.oidc(issuer: URL(string: "https://id.example.com/realms/dev")!)
  /// // "oidc-id.example.com-5d0c…"
  /// let provider = OIDCProvider(id: id, configuration: .init(issuer: issuer, clientID: "cli"))
  /// ```
  public static func oidc(issuer: URL) -> ProviderID {
    var text = issuer.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    var hasher = SHA256()
    hasher.update(Array(text.utf8))
    let digest = hasher.finalize().prefix(6).map { byte in
      String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }.joined()
    let host = (issuer.host ?? "issuer").lowercased().filter {
      $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-")
    }
    let port = issuer.port.map { "_\($0)" } ?? ""
    return ProviderID(rawValue: "oidc-\(host)\(port)-\(digest)")
  }
}
