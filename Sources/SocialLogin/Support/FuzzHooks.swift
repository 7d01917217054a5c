import Foundation
import SocialLoginCrypto

/// Entry points into the internal parsers for the fuzzers (`Tests/Fuzz`) and the corpus replay
/// test, package-visible only: `SocialLoginTesting.FuzzTargets` wraps them publicly.
///
/// Each one feeds arbitrary bytes to one parser and discards the result. A parser must return
/// or throw a typed error for any input; a trap, a hang or unbounded memory is the bug the
/// fuzzers look for.
package enum FuzzHooks {
  /// `OAuth2TokenResponse` parsing of a 2xx token endpoint body.
  package static func tokenResponse(_ bytes: [UInt8]) {
    let response = TransportResponse(
      status: 200, headers: ["Content-Type": "application/json"], body: Data(bytes))
    _ = try? OAuth2TokenResponse(
      response: response, receivedAt: Date(timeIntervalSince1970: 1_700_000_000),
      requestedScopes: ["openid"], scopeSeparator: " ", operation: "fuzz", provider: "fuzz")
    _ = response.oauthErrorFields()
  }

  /// OAuth 1.0a responses: form-encoded success bodies and X's error bodies.
  package static func oauth1Response(_ bytes: [UInt8]) {
    let response = TransportResponse(status: 200, body: Data(bytes))
    _ = try? response.formFields()
    _ = OAuth1Client.errorDetails(in: Data(bytes))
  }

  /// `FileSessionStore` file decoding.
  package static func storeFile(_ bytes: [UInt8]) {
    _ = try? FileSessionStore.decode(Data(bytes), stem: "fuzz", path: "/fuzz/session.json")
  }
}
