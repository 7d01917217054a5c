import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

/// Bodies shaped as X documents them (reference §2 and §7), and helpers to build X providers on
/// a stub transport and to read the requests they sent.
enum XFixture {
  static let clientID = "M1M5R3BMVy13QmpScXkzTUt5OE46MTpjaQ"
  static let clientSecret: Secret = "x-client-SECRET-0123456789"
  static let consumerKey = "xvz1evFS4wEEPTGEFPHBog"
  static let consumerSecret: Secret = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"
  static let redirectURI = "https://app.example/x/callback"
  static let userID = "2244994945"

  // MARK: OAuth 2.0 bodies

  /// RFC 6749 §5.1 as X sends it: lowercase `bearer`, two hours, the granted scopes and, with
  /// `offline.access`, a refresh token.
  static func token(_ access: String, refresh: String?, expiresIn: Int = 7200) -> String {
    let refreshField = refresh.map { #","refresh_token":"\#($0)""# } ?? ""
    return #"{"token_type":"bearer","expires_in":\#(expiresIn),"access_token":"\#(access)","#
      + #""scope":"users.read tweet.read offline.access"\#(refreshField)}"#
  }

  /// §7: a spent, rotated-away or unknown refresh token.
  static let spentRefreshToken =
    #"{"error":"invalid_request","error_description":"Value passed for the token was invalid."}"#
  /// §2.1: a reused, late or mismatched authorization code.
  static let invalidCode =
    #"{"error":"invalid_request","error_description":"Value passed for the authorization code "#
    + #"was invalid.","errors":[{"message":"Value passed for the authorization code was "#
    + #"invalid.","code":131}]}"#
  /// §6.2: a confidential client refreshing without HTTP Basic.
  static let missingAuthorization =
    #"{"error":"unauthorized_client","error_description":"Missing valid authorization header"}"#
  /// RFC 6749 `invalid_grant`.
  static let invalidGrant =
    #"{"error":"invalid_grant","error_description":"The refresh token was revoked."}"#
  /// Revocation success.
  static let revoked = #"{"revoked":true}"#

  /// `/2/users/me?user.fields=profile_image_url`.
  static let usersMe =
    #"{"data":{"id":"2244994945","name":"Developers","username":"XDevelopers","#
    + #""profile_image_url":"https://pbs.twimg.com/profile_images/1/dev_normal.jpg"}}"#
  /// v2 problem for a revoked or expired bearer token.
  static let unauthorizedProblem =
    #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#
  /// v2 problem for an app that is not enrolled for v2 access.
  static let clientForbiddenProblem =
    #"{"title":"Client Forbidden","detail":"This request must be made using an approved "#
    + #"developer account that is enrolled in the requested endpoint.","#
    + #""type":"https://api.x.com/2/problems/client-forbidden","status":403}"#
  /// v2 problem for a rate-limited call.
  static let tooManyRequestsProblem =
    #"{"title":"Too Many Requests","detail":"Too Many Requests","type":"about:blank","status":429}"#
  /// A 200 with only `errors` (a partial-error body with no `data`).
  static let errorsOnly =
    #"{"errors":[{"resource_id":"2244994945","resource_type":"user","title":"Not Found Error","#
    + #""detail":"Could not find user with id: [2244994945].","#
    + #""type":"https://api.x.com/2/problems/resource-not-found"}]}"#

  // MARK: OAuth 1.0a bodies

  /// v1.1 error 89: invalid or expired token.
  static let error89 = #"{"errors":[{"code":89,"message":"Invalid or expired token."}]}"#
  /// v1.1 error 32: the signature did not verify.
  static let error32 = #"{"errors":[{"code":32,"message":"Could not authenticate you."}]}"#
  /// `verify_credentials.json` (trimmed to the fields the SDK reads, plus one it does not).
  static let verifyCredentials =
    #"{"id":2244994945,"id_str":"2244994945","name":"Developers","screen_name":"XDevelopers","#
    + #""profile_image_url_https":"https://pbs.twimg.com/profile_images/1/dev_normal.jpg","#
    + #""email":"dev@example.com","followers_count":1}"#

  // MARK: Providers

  /// An OAuth 2.0 configuration that ignores the process environment.
  static func configuration(
    secret: Secret? = clientSecret,
    configure: (inout XProvider.Configuration) throws -> Void = { _ in }
  ) throws -> XProvider.Configuration {
    var configuration = try XProvider.Configuration(
      clientID: clientID, clientSecret: secret, environment: [:])
    try configure(&configuration)
    return configuration
  }

  static func provider(
    _ stub: StubTransport, clock: ManualClock, secret: Secret? = clientSecret,
    configure: (inout XProvider.Configuration) throws -> Void = { _ in }
  ) throws -> XProvider {
    XProvider(
      configuration: try configuration(secret: secret, configure: configure), transport: stub,
      clock: clock)
  }

  static func oauth1Provider(
    _ stub: StubTransport, clock: ManualClock,
    configure: (inout XProvider.OAuth1Configuration) throws -> Void = { _ in }
  ) throws -> XProvider {
    var configuration = try XProvider.OAuth1Configuration(
      consumerKey: consumerKey, consumerSecret: consumerSecret, environment: [:])
    try configure(&configuration)
    return XProvider(oauth1: configuration, transport: stub, clock: clock)
  }

  // MARK: Reading requests

  /// The form fields of a request body, first value of each name.
  static func form(_ request: TransportRequest?) -> [String: String] {
    let fields = FormEncoding.decode(String(decoding: request?.body ?? Data(), as: UTF8.self))
    return Dictionary(fields, uniquingKeysWith: { first, _ in first })
  }

  /// The query of a URL, first value of each name.
  static func query(_ url: URL?) -> [String: String] {
    guard let url else { return [:] }
    let text = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
    return Dictionary(FormEncoding.decode(text), uniquingKeysWith: { first, _ in first })
  }

  /// The `Authorization: Basic` header X expects from a confidential client.
  static var basic: String {
    "Basic " + Data("\(clientID):\(clientSecret.revealed)".utf8).base64EncodedString()
  }

  /// The decoded parameters of an `Authorization: OAuth k="v", …` header.
  static func oauthParameters(_ request: TransportRequest?) throws -> [String: String] {
    let header = try #require(request?.headers["Authorization"])
    #expect(header.hasPrefix("OAuth "))
    var parameters: [String: String] = [:]
    for item in header.dropFirst("OAuth ".count).components(separatedBy: ", ") {
      let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
      try #require(parts.count == 2)
      let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      parameters[parts[0]] = value.removingPercentEncoding
    }
    return parameters
  }

  /// Recomputes the HMAC-SHA1 signature of a recorded request from its own nonce and
  /// timestamp and checks that the header carries it, keyed with `tokenSecret`.
  static func expectValidSignature(
    _ request: TransportRequest?, tokenSecret: Secret?, extra: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let request = try #require(request)
    let parameters = try oauthParameters(request)
    var unsigned = request
    unsigned.headers["Authorization"] = nil
    let signer = OAuth1Signer(consumerKey: consumerKey, consumerSecret: consumerSecret)
    let expected = try signer.signature(
      for: unsigned, token: parameters["oauth_token"], tokenSecret: tokenSecret,
      oauthParameters: extra.compactMap { name in parameters[name].map { (name, $0) } },
      nonce: try #require(parameters["oauth_nonce"]),
      timestamp: try #require(parameters["oauth_timestamp"]))
    #expect(parameters["oauth_signature"] == expected.signature, sourceLocation: sourceLocation)
    #expect(parameters["oauth_consumer_key"] == consumerKey, sourceLocation: sourceLocation)
    #expect(parameters["oauth_signature_method"] == "HMAC-SHA1", sourceLocation: sourceLocation)
  }

  /// `base64url(SHA-256(verifier))`, the S256 challenge.
  static func challenge(for verifier: String) -> String {
    Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
  }

  /// A stored, expired X credential with refresh token `refresh`.
  static func expiredCredential(refresh: String, clock: ManualClock) -> Credential {
    Credential(
      accessToken: Secret("at-old"), refreshToken: Secret(refresh), tokenType: "bearer",
      scopes: Configuration.scopes, expiresAt: clock.wallTime.addingTimeInterval(-60),
      issuedAt: clock.wallTime.addingTimeInterval(-7260))
  }

  /// `date` as an IMF-fixdate (`Date` header).
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  static let identity = Identity(provider: .twitter, subject: userID, name: "Developers")

  enum Configuration {
    static let scopes = ["users.read", "tweet.read", "offline.access"]
  }
}

extension XFixture {
  static let emulatorVariable = EmulatorHost.environmentVariable
}
