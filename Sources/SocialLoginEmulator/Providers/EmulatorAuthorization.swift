import Foundation
import LoopbackHTTP
import SocialLoginCrypto

/// What the emulated consent screen decided for an authorization request.
enum ConsentDecision {
  /// Approved as this user: redirect with a code.
  case approve(EmulatedUser)
  /// The user cancelled: redirect with the provider's cancel error.
  case deny
  /// Show this page and wait for the user's click.
  case page(HTTPResponse)
}

/// The consent step and PKCE, shared by the OAuth 2.0 providers.
enum EmulatorAuthorization {
  /// The query parameter the consent page's links add.
  static let consentParameter = "emulator_consent"

  /// Auto-approves as the current user, unless that user denies or needs consent. A consent
  /// page links back to the same URL with `emulator_consent=allow` or `deny`.
  static func decide(_ request: EmulatorRequest, environment: EmulatorEnvironment, appName: String)
    -> ConsentDecision
  {
    guard let user = environment.currentUser else { return .deny }
    switch request.query(consentParameter) {
    case "allow": return .approve(user)
    case "deny": return .deny
    default: break
    }
    switch user.authorization {
    case .approve: return .approve(user)
    case .deny: return .deny
    case .consent:
      let here = "/" + request.host + request.path + "?" + (request.http.query ?? "")
      let allow = here + "&\(consentParameter)=allow"
      let deny = here + "&\(consentParameter)=deny"
      return .page(
        .html(
          "<!doctype html><html><head><title>Authorize \(EmulatorJSON.escape(appName))</title>"
            + "</head><body><h1>\(EmulatorJSON.escape(appName)) wants to sign you in</h1>"
            + "<p>Signed in as \(EmulatorJSON.escape(user.name)).</p>"
            + "<p><a id=\"allow\" href=\"\(EmulatorJSON.escape(allow))\">Allow</a> "
            + "<a id=\"deny\" href=\"\(EmulatorJSON.escape(deny))\">Cancel</a></p>"
            + "</body></html>\n"))
    }
  }

  /// Whether `verifier` matches the code's `code_challenge` (RFC 7636 §4.6). A code issued
  /// without a challenge accepts no verifier.
  static func pkceMatches(challenge: String?, method: String?, verifier: String?) -> Bool {
    guard let challenge else { return verifier == nil }
    guard let verifier, isValidVerifier(verifier) else { return false }
    switch method ?? "plain" {
    case "S256":
      let computed = Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
      return ConstantTime.equals(Array(computed.utf8), Array(challenge.utf8))
    case "plain":
      return ConstantTime.equals(Array(verifier.utf8), Array(challenge.utf8))
    default:
      return false
    }
  }

  /// 43–128 characters of `A-Z a-z 0-9 - . _ ~`.
  static func isValidVerifier(_ verifier: String) -> Bool {
    (43...128).contains(verifier.utf8.count)
      && verifier.utf8.allSatisfy { byte in
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."),
          UInt8(ascii: "_"), UInt8(ascii: "~"):
          true
        default: false
        }
      }
  }

  /// Whether `uri` can be redirected to: an absolute URL without a fragment, with a host when
  /// it is `http` or `https` (native apps' private-use schemes need none).
  static func isRedirectable(_ uri: String?) -> Bool {
    guard let uri, uri.utf8.count <= 2048, !uri.contains("#"),
      uri.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
      let components = URLComponents(string: uri),
      let scheme = components.scheme?.lowercased(), !scheme.isEmpty
    else { return false }
    if scheme == "http" || scheme == "https" { return !(components.host ?? "").isEmpty }
    return true
  }
}
