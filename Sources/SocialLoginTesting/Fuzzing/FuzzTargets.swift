import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// One function per parser that takes untrusted input, for the libFuzzer package in
/// `Tests/Fuzz` and for the corpus replay in the normal test run.
///
/// Every entry feeds arbitrary bytes to its parser and ignores the outcome: parsers must return
/// or throw a typed error for any input, so only a trap, a hang or runaway memory fails. The
/// corpus in `Tests/Fuzz/Corpus/<name>/` keeps every input that once crashed one of them.
///
/// ```swift
/// for target in FuzzTargets.all {
///   target.run(Array("GET / HTTP/1.1\r\n\r\n".utf8))
/// }
/// ```
public enum FuzzTargets {
  /// A named fuzz entry point.
  public struct Target: Sendable {
    /// The corpus folder and libFuzzer executable suffix, for example `http_request`.
    public let name: String
    /// Feeds one input to the parser.
    public let run: @Sendable ([UInt8]) -> Void

    /// A target for a parser outside this module (the Redis module's `resp_reply`).
    public init(name: String, run: @escaping @Sendable ([UInt8]) -> Void) {
      self.name = name
      self.run = run
    }
  }

  /// Every target, in a stable order. (Redis replies have their own entry in the Redis
  /// module, `resp_reply`, so that this module does not depend on it.)
  ///
  /// Some targets drive actors and block the calling thread until they finish: call `run`
  /// from a thread of your own (libFuzzer's, or `Thread`), not from the cooperative pool.
  public static let all: [Target] = [
    Target(name: "http_request", run: httpRequest),
    Target(name: "strict_json", run: strictJSON),
    Target(name: "jwk", run: jwk),
    Target(name: "jws_verify", run: jwsVerify),
    Target(name: "base64url", run: base64URL),
    Target(name: "callback_url", run: callbackURL),
    Target(name: "token_response", run: FuzzHooks.tokenResponse),
    Target(name: "oauth1_response", run: oauth1Response),
    Target(name: "store_file", run: FuzzHooks.storeFile),
    Target(name: "x509", run: x509),
    Target(name: "provider_response", run: FuzzHooks.providerResponse),
    Target(name: "aead_open", run: aeadOpen),
    Target(name: "sealed_open", run: FuzzHooks.sealedOpen),
    Target(name: "provider_description", run: FuzzHooks.providerDescription),
    Target(name: "described_answer", run: FuzzHooks.describedAnswer),
  ]

  /// The target called `name`, if any.
  public static func target(named name: String) -> Target? {
    all.first { $0.name == name }
  }

  /// The HTTP/1.1 request parser, fed in two pieces split at the first byte's value (so
  /// partial reads are exercised too), then once more with the leftover of a pipelined request.
  @Sendable public static func httpRequest(_ bytes: [UInt8]) {
    var parser = HTTPRequestParser(limits: .default, remoteAddress: "127.0.0.1")
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var result = parser.feed(bytes[..<split])
    if case .needMore = result { result = parser.feed(bytes[split...]) }
    if case .complete(_, let leftover) = result, !leftover.isEmpty {
      _ = parser.feed(leftover)
    }
  }

  /// `JSONValue(parsing:)`, and re-parsing its own output.
  @Sendable public static func strictJSON(_ bytes: [UInt8]) {
    guard let value = try? JSONValue(parsing: bytes) else { return }
    _ = try? JSONValue(parsing: Array(value.jsonText.utf8))
  }

  /// `JWK(parsing:)` and `JWKSet(parsing:)`, and the export of what parsed.
  @Sendable public static func jwk(_ bytes: [UInt8]) {
    if let key = try? JWK(parsing: bytes) { _ = key.publicJSON?.jsonText }
    if let set = try? JWKSet(parsing: bytes) { _ = set.publicJSON.jsonText }
  }

  /// `JWSVerifier.verifyJWT` over a fixed key set (RSA, P-256 and `oct` keys), every
  /// algorithm allowed.
  @Sendable public static func jwsVerify(_ bytes: [UInt8]) {
    let token = String(decoding: bytes, as: UTF8.self)
    _ = try? CompactJWS(parsing: token)
    guard let keys = fuzzKeys else { return }
    _ = try? JWSVerifier(allowedAlgorithms: Set(JWSAlgorithm.allCases)).verifyJWT(
      token, keys: keys)
  }

  /// `Base64URL.decode` (strict) and `Base64.decode` (lenient), with a round trip.
  @Sendable public static func base64URL(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let decoded = try? Base64URL.decode(text) {
      _ = Base64URL.encode(decoded)
    }
    _ = Base64.decode(text)
  }

  /// Callback URLs: `AuthorizationCallback(url:)` and the loopback server's query decoding.
  @Sendable public static func callbackURL(_ bytes: [UInt8]) {
    _ = HTTPForm.decode(bytes)
    if let url = URL(string: String(decoding: bytes, as: UTF8.self)) {
      _ = try? AuthorizationCallback(url: url)
    }
  }

  /// OAuth 1.0a response bodies (form-encoded successes, error bodies).
  @Sendable public static func oauth1Response(_ bytes: [UInt8]) {
    FuzzHooks.oauth1Response(bytes)
  }

  /// `X509Certificate` from DER, and from the bytes as PEM text.
  @Sendable public static func x509(_ bytes: [UInt8]) {
    _ = try? X509Certificate(derEncoded: bytes)
    _ = try? X509Certificate(pemEncoded: String(decoding: bytes, as: UTF8.self))
  }

  /// `ChaCha20Poly1305.open` / `XChaCha20Poly1305.open` on attacker-chosen everything. The
  /// first byte's low bit picks the algorithm, the second is the associated data's length;
  /// then come the key (32 bytes), the nonce (12 or 24), the associated data and the sealed
  /// value (shorter inputs give short keys or nonces, which must throw). The value is also
  /// sealed and must open back, and must not open with its last byte changed.
  @Sendable public static func aeadOpen(_ bytes: [UInt8]) {
    let extended = (bytes.first ?? 0) & 1 == 1
    let seal = extended ? XChaCha20Poly1305.seal : ChaCha20Poly1305.seal
    let open = extended ? XChaCha20Poly1305.open : ChaCha20Poly1305.open
    var rest = bytes.dropFirst(2)
    let associatedDataLength = Int(bytes.dropFirst().first ?? 0)
    let key = Array(rest.prefix(32))
    rest = rest.dropFirst(32)
    let nonce = Array(rest.prefix(extended ? 24 : 12))
    rest = rest.dropFirst(nonce.count)
    let associatedData = Array(rest.prefix(associatedDataLength))
    let value = Array(rest.dropFirst(associatedData.count))
    _ = try? open(value, key, nonce, associatedData)
    guard let sealed = try? seal(value, key, nonce, associatedData) else { return }
    precondition((try? open(sealed, key, nonce, associatedData)) == value, "round trip failed")
    var forged = sealed
    forged[forged.count - 1] ^= 1
    precondition((try? open(forged, key, nonce, associatedData)) == nil, "forged tag accepted")
  }

  /// RFC 7515's example RSA (A.2) and P-256 (A.3) public keys and an `oct` key.
  private static let fuzzKeys: JWKSet? = try? JWKSet(
    parsing: Array(
      """
      {"keys":[
      {"kty":"RSA","kid":"rsa","n":"ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ","e":"AQAB"},
      {"kty":"EC","kid":"ec","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
      {"kty":"oct","kid":"oct","k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"}
      ]}
      """.utf8))
}
