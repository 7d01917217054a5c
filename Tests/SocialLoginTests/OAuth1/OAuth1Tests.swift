import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// The OAuth 1.0a tests, grouped so that `swift test --filter OAuth1` runs them all.
@Suite(.timeLimit(.minutes(5))) enum OAuth1Tests {}

/// Inputs of X's "creating a signature" worked example (providers.md §2.2).
enum XExample {
  static let consumerKey = "xvz1evFS4wEEPTGEFPHBog"
  static let consumerSecret: Secret = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"
  static let token = "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"
  static let tokenSecret: Secret = "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"
  static let nonce = "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"
  static let timestamp = "1318622958"
  static let status = "Hello Ladies + Gentlemen, a signed OAuth request!"

  /// The request built from decoded values: the form body encodes `+` as `%2B`.
  static func request(baseURL: String) throws -> TransportRequest {
    let url = try #require(URL(string: baseURL + "?include_entities=true"))
    return TransportRequest.form(url: url, fields: [("status", status)])
  }

  static func signer(clock: any AuthClock = SystemAuthClock()) -> OAuth1Signer {
    OAuth1Signer(
      consumerKey: consumerKey, consumerSecret: consumerSecret, clock: clock,
      nonce: { XExample.nonce })
  }
}

/// Fixed inputs for the flow tests; expected signatures were computed independently with
/// Python's `hmac`/`hashlib` and `urllib.parse.quote(safe="-._~")`.
enum FlowFixture {
  static let consumerKey = "ck-123"
  static let consumerSecret: Secret = "cs/+secret"
  static let nonce = "FixedNonce0123456789"

  static func client(
    _ stub: StubTransport, clock: ManualClock = ManualClock(),
    endpoints: OAuth1Endpoints = .x
  ) -> OAuth1Client {
    OAuth1Client(
      consumerKey: consumerKey, consumerSecret: consumerSecret, transport: stub,
      endpoints: endpoints, clock: clock, nonce: { FlowFixture.nonce })
  }

  /// The `name="value"` items of an `Authorization: OAuth` header, values still encoded.
  static func headerItems(_ header: String?) -> [String: String] {
    guard let header, header.hasPrefix("OAuth ") else { return [:] }
    var items: [String: String] = [:]
    for item in header.dropFirst(6).components(separatedBy: ", ") {
      guard let equals = item.firstIndex(of: "=") else { continue }
      let value = item[item.index(after: equals)...]
      items[String(item[..<equals])] = String(value.dropFirst().dropLast())
    }
    return items
  }
}
