import Foundation
import SocialLogin

/// One request the emulator served, as `GET /_emulator/requests` lists it. Secrets (codes,
/// tokens, client secrets, verifiers, proofs, signatures) never appear: ``query`` and
/// ``form`` show their names with the value `<redacted>`.
///
/// ```swift
/// let refreshes = emulator.requests.filter {
///   $0.provider == .twitter && $0.endpoint == "token" && $0.grantType == "refresh_token"
/// }
/// #expect(refreshes.count == 1)
/// ```
public struct EmulatorRequestRecord: Sendable, Hashable, Codable {
  /// The position in the transcript, from 1.
  public var sequence: Int
  /// The provider, or `emulator` for unknown hosts.
  public var provider: ProviderID
  /// The endpoint by its `--endpoint` name, or `unknown`.
  public var endpoint: String
  /// The HTTP method.
  public var method: String
  /// The path, without the query.
  public var path: String
  /// The status sent; 0 when the connection was dropped.
  public var status: Int
  /// The form's or query's `grant_type`, when there was one.
  public var grantType: String?
  /// The query, secrets redacted.
  public var query: [String: String]
  /// The form body, secrets redacted.
  public var form: [String: String]
  /// The injected fault, when one applied (`status=429`).
  public var fault: String?
  /// The emulator clock's time when the request arrived.
  public var time: Date

  enum CodingKeys: String, CodingKey {
    case sequence, provider, endpoint, method, path, status, query, form, fault, time
    case grantType = "grant_type"
  }

  /// Parameter names whose values are secrets.
  static let secretNames: Set<String> = [
    "code", "access_token", "refresh_token", "client_secret", "token", "id_token",
    "input_token", "fb_exchange_token", "code_verifier", "appsecret_proof", "oauth_token",
    "oauth_verifier", "oauth_signature", "oauth_token_secret", "password", "postBody",
    "idToken", "refreshToken", "key",
  ]

  /// `items` as a dictionary (first value wins), secrets replaced by `<redacted>`.
  static func redacted(_ items: [(String, String)]) -> [String: String] {
    var result: [String: String] = [:]
    for (name, value) in items where result[name] == nil {
      result[name] = secretNames.contains(name) ? "<redacted>" : String(value.prefix(200))
    }
    return result
  }
}
