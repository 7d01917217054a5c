import Foundation
import SocialLoginCrypto

/// Signs HTTP requests with OAuth 1.0a `HMAC-SHA1` (RFC 5849 §3.4, as X/Twitter documents it)
/// and produces the `Authorization: OAuth …` header.
///
/// The signature covers the upper-cased method, the base string URI (scheme and host lower-case,
/// default port dropped, no query or fragment), the decoded query parameters, the parameters of
/// an `application/x-www-form-urlencoded` body, and the `oauth_*` protocol parameters. Every
/// name and value is percent-encoded keeping only `A-Za-z0-9-._~` (space is `%20`, never `+`),
/// then the pairs are sorted by encoded name and encoded value. The key is
/// `enc(consumer secret)&enc(token secret)`, with a trailing `&` when there is no token secret.
///
/// The nonce (32 ASCII letters and digits) comes from `SocialLoginCrypto.SecureRandom` and the
/// timestamp from the injected ``AuthClock``; both can be replaced for tests.
///
/// ```swift
/// let signer = OAuth1Signer(consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: consumerSecret)
/// let request = TransportRequest.form(
///   url: URL(string: "https://api.x.com/1.1/statuses/update.json?include_entities=true")!,
///   fields: [("status", "Hello Ladies + Gentlemen, a signed OAuth request!")])
/// let signed = try signer.sign(request, token: accessToken, tokenSecret: tokenSecret)
/// let response = try await transport.send(signed)
///
/// // Deterministic signing, for tests and debugging:
/// let signature = try signer.signature(
///   for: request, token: accessToken, tokenSecret: tokenSecret,
///   nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: "1318622958")
/// print(signature.baseString, signature.signature)
/// ```
public struct OAuth1Signer: Sendable, CustomStringConvertible {
  /// The `oauth_signature_method` this signer produces.
  public static let signatureMethod = "HMAC-SHA1"
  /// The `oauth_version` this signer sends.
  public static let version = "1.0"

  /// The `oauth_*` names the signer sets itself; callers cannot pass them as extra parameters.
  static let managedNames: Set<String> = [
    "oauth_consumer_key", "oauth_nonce", "oauth_signature", "oauth_signature_method",
    "oauth_timestamp", "oauth_token", "oauth_version",
  ]

  /// The consumer key (X "API key"), sent as `oauth_consumer_key`.
  public var consumerKey: String
  /// The consumer secret (X "API key secret"); only used to key the HMAC, never sent.
  public var consumerSecret: Secret
  /// The optional `realm` put first in the `Authorization` header; it is never signed.
  public var realm: String?
  /// The clock whose wall time gives `oauth_timestamp`.
  public var clock: any AuthClock
  /// Seconds added to the clock's time before it becomes `oauth_timestamp`, to correct a
  /// known skew against the server (for example ``Credential/serverTimeOffset``).
  public var timestampOffset: TimeInterval
  /// Makes each `oauth_nonce`. It must return a fresh ASCII value on every call.
  public var makeNonce: @Sendable () -> String

  /// Creates a signer.
  ///
  /// - Parameters:
  ///   - consumerKey: the consumer (API) key.
  ///   - consumerSecret: the consumer (API key) secret.
  ///   - realm: an optional `realm` for the header; X does not use one.
  ///   - clock: the source of `oauth_timestamp`; inject `ManualClock` in tests.
  ///   - timestampOffset: seconds added to the clock's time (server clock minus local clock).
  ///   - nonce: makes each `oauth_nonce`; defaults to ``randomNonce(length:)``.
  public init(
    consumerKey: String,
    consumerSecret: Secret,
    realm: String? = nil,
    clock: any AuthClock = SystemAuthClock(),
    timestampOffset: TimeInterval = 0,
    nonce: @escaping @Sendable () -> String = { OAuth1Signer.randomNonce() }
  ) {
    self.consumerKey = consumerKey
    self.consumerSecret = consumerSecret
    self.realm = realm
    self.clock = clock
    self.timestampOffset = timestampOffset
    self.makeNonce = nonce
  }

  /// Names the consumer key; never the consumer secret.
  public var description: String {
    "OAuth1Signer(consumerKey: \(consumerKey), consumerSecret: <redacted>)"
  }

  // MARK: Signing requests

  /// Returns `request` with an `Authorization: OAuth …` header signed with a fresh nonce and
  /// the current timestamp. Any existing `Authorization` header is replaced.
  ///
  /// - Parameters:
  ///   - request: the request exactly as it will be sent (method, URL with query, headers,
  ///     body); change nothing after signing.
  ///   - token: `oauth_token` (request or access token), or `nil` to obtain a request token.
  ///   - tokenSecret: the secret of `token`, or `nil` for none (the key then ends in `&`).
  ///   - oauthParameters: extra protocol parameters such as `oauth_callback` or
  ///     `oauth_verifier`; names must start with `oauth_` and not be one the signer sets.
  /// - Throws: ``AuthError/Code/configuration`` when the URL has no scheme or host, the form
  ///   body is not UTF-8, or an extra parameter is not allowed.
  public func sign(
    _ request: TransportRequest,
    token: String? = nil,
    tokenSecret: Secret? = nil,
    oauthParameters: [(String, String)] = []
  ) throws(AuthError) -> TransportRequest {
    let signature = try signature(
      for: request, token: token, tokenSecret: tokenSecret, oauthParameters: oauthParameters,
      nonce: makeNonce(), timestamp: currentTimestamp())
    var signed = request
    signed.headers["Authorization"] = signature.authorizationHeader
    return signed
  }

  /// Computes the signature of `request` for a given nonce and timestamp, with every
  /// intermediate value (parameter string, base string, header), without changing the request.
  ///
  /// ```swift
  /// let result = try signer.signature(
  ///   for: request, token: "370773112-GmHx…", tokenSecret: tokenSecret,
  ///   nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: "1318622958")
  /// result.signature            // "hCtSmYh+iHYCEqBWrE7C7hYmtUk=" for the X example
  /// ```
  ///
  /// - Throws: ``AuthError/Code/configuration``, as ``sign(_:token:tokenSecret:oauthParameters:)``,
  ///   and when `nonce` or `timestamp` is empty.
  public func signature(
    for request: TransportRequest,
    token: String?,
    tokenSecret: Secret?,
    oauthParameters: [(String, String)] = [],
    nonce: String,
    timestamp: String
  ) throws(AuthError) -> OAuth1Signature {
    guard !nonce.isEmpty, !timestamp.isEmpty else {
      throw AuthError(.configuration, "OAuth 1.0a signing needs a non-empty nonce and timestamp.")
    }
    var seen: Set<String> = []
    for (name, _) in oauthParameters {
      guard name.hasPrefix("oauth_"), !Self.managedNames.contains(name), seen.insert(name).inserted
      else {
        throw AuthError(
          .configuration,
          "The extra OAuth parameter '\(name)' is not allowed: names must start with 'oauth_', "
            + "appear once, and not be one the signer sets (\(Self.managedNames.sorted())).")
      }
    }
    var protocolParameters: [(String, String)] = [
      ("oauth_consumer_key", consumerKey),
      ("oauth_nonce", nonce),
      ("oauth_signature_method", Self.signatureMethod),
      ("oauth_timestamp", timestamp),
    ]
    if let token, !token.isEmpty { protocolParameters.append(("oauth_token", token)) }
    protocolParameters.append(("oauth_version", Self.version))
    protocolParameters += oauthParameters

    let parameters = try Self.requestParameters(of: request) + protocolParameters
    let parameterString = Self.normalizedParameterString(parameters)
    let baseString =
      request.method.uppercased() + "&"
      + Self.percentEncode(try Self.baseStringURI(request.url)) + "&"
      + Self.percentEncode(parameterString)
    let key = Self.signingKey(consumerSecret: consumerSecret, tokenSecret: tokenSecret)
    let signature = Self.hmacSHA1(baseString: baseString, key: key)
    let header = Self.authorizationHeader(
      protocolParameters + [("oauth_signature", signature)], realm: realm)
    return OAuth1Signature(
      parameterString: parameterString, baseString: baseString, signature: signature,
      authorizationHeader: header)
  }

  /// The `oauth_timestamp` for now: whole seconds since 1970 on ``clock``, plus
  /// ``timestampOffset``.
  public func currentTimestamp() -> String {
    let seconds = (clock.wallTime.timeIntervalSince1970 + timestampOffset).rounded(.down)
    return String(Int64(exactly: seconds) ?? 0)
  }

  // MARK: Building blocks

  /// Percent-encodes per RFC 3986 as OAuth 1.0a requires: only `A-Za-z0-9-._~` are kept,
  /// every other UTF-8 byte becomes `%XX` with upper-case hex (space is `%20`, `☃` is
  /// `%E2%98%83`).
  public static func percentEncode(_ value: String) -> String {
    FormEncoding.percentEncodeRFC3986(value)
  }

  /// The normalized parameter string (RFC 5849 §3.4.1.3.2): each decoded name and value is
  /// percent-encoded, the pairs are sorted by encoded name and then encoded value (byte order),
  /// and joined as `name=value` with `&`.
  ///
  /// ```swift
  /// OAuth1Signer.normalizedParameterString([("b", "2"), ("a", "x y"), ("a", "!")])
  /// // "a=%21&a=x%20y&b=2"
  /// ```
  public static func normalizedParameterString(_ parameters: [(String, String)]) -> String {
    encodedAndSorted(parameters).map { $0.name + "=" + $0.value }.joined(separator: "&")
  }

  /// The base string URI (RFC 5849 §3.4.1.2): scheme and host in lower case, the port only when
  /// it is not the scheme's default (80 for `http`, 443 for `https`), and the path (`/` when
  /// empty), without user info, query or fragment.
  ///
  /// ```swift
  /// try OAuth1Signer.baseStringURI(URL(string: "HTTPS://API.X.com:443/1.1/a.json?x=1#f")!)
  /// // "https://api.x.com/1.1/a.json"
  /// ```
  ///
  /// - Throws: ``AuthError/Code/configuration`` when the URL has no scheme or host.
  public static func baseStringURI(_ url: URL) throws(AuthError) -> String {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
      let scheme = components.scheme?.lowercased(), !scheme.isEmpty,
      let host = components.encodedHost?.lowercased(), !host.isEmpty
    else {
      throw AuthError(
        .configuration,
        "OAuth 1.0a can only sign requests to absolute URLs with a scheme and a host.")
    }
    var uri = scheme + "://" + host
    if let port = components.port, !(scheme == "http" && port == 80),
      !(scheme == "https" && port == 443)
    {
      uri += ":\(port)"
    }
    let path = components.percentEncodedPath
    uri += path.isEmpty ? "/" : path
    return uri
  }

  /// The request's own parameters, decoded: the query's fields, then the body's fields when
  /// the body is `application/x-www-form-urlencoded`. An `oauth_signature` among them is dropped.
  ///
  /// - Throws: ``AuthError/Code/configuration`` when a form body is not UTF-8 text.
  public static func requestParameters(
    of request: TransportRequest
  ) throws(AuthError) -> [(String, String)] {
    var parameters: [(String, String)] = []
    if let query = URLComponents(url: request.url, resolvingAgainstBaseURL: true)?
      .percentEncodedQuery
    {
      parameters += FormEncoding.decode(query)
    }
    if isFormEncoded(request.headers["Content-Type"]), let body = request.body, !body.isEmpty {
      guard let text = String(data: body, encoding: .utf8) else {
        throw AuthError(
          .configuration, "The form-encoded body (\(body.count) bytes) is not UTF-8 text.")
      }
      parameters += FormEncoding.decode(text)
    }
    return parameters.filter { $0.0 != "oauth_signature" }
  }

  /// The HMAC-SHA1 key: `enc(consumerSecret)&enc(tokenSecret)`, ending in `&` when there is
  /// no token secret (request-token step).
  public static func signingKey(consumerSecret: Secret, tokenSecret: Secret?) -> Secret {
    Secret(
      percentEncode(consumerSecret.revealed) + "&" + percentEncode(tokenSecret?.revealed ?? ""))
  }

  /// `base64(HMAC-SHA1(key, baseString))`.
  public static func hmacSHA1(baseString: String, key: Secret) -> String {
    Base64.encode(
      HMAC<SHA1>.authenticationCode(for: Array(baseString.utf8), using: Array(key.revealed.utf8)))
  }

  /// The `Authorization` header value: `OAuth ` then the optional `realm` and the parameters
  /// sorted by name, each as `name="enc(value)"`, separated by `, `.
  ///
  /// ```swift
  /// OAuth1Signer.authorizationHeader([("oauth_token", "t"), ("oauth_signature", "a/b=")],
  ///                                  realm: nil)
  /// // #"OAuth oauth_signature="a%2Fb%3D", oauth_token="t""#
  /// ```
  public static func authorizationHeader(
    _ oauthParameters: [(String, String)], realm: String?
  ) -> String {
    var items: [String] = []
    if let realm { items.append("realm=\"\(quotedStringContent(realm))\"") }
    items += encodedAndSorted(oauthParameters).map { "\($0.name)=\"\($0.value)\"" }
    return "OAuth " + items.joined(separator: ", ")
  }

  /// A random nonce of `length` ASCII letters and digits from `SocialLoginCrypto.SecureRandom`
  /// (X accepts only ASCII nonces). 32 characters carry about 190 bits.
  public static func randomNonce(length: Int = 32) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    var output: [UInt8] = []
    output.reserveCapacity(max(length, 0))
    while output.count < length {
      // Rejection sampling: 248 = 4 × 62, so accepted bytes map uniformly onto the alphabet.
      for byte in SecureRandom.bytes(count: length) where byte < 248 && output.count < length {
        output.append(alphabet[Int(byte) % alphabet.count])
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  // MARK: Internals

  /// Percent-encodes names and values, then sorts by encoded name and encoded value, comparing
  /// bytes (the encoded strings are ASCII).
  private static func encodedAndSorted(
    _ parameters: [(String, String)]
  ) -> [(name: String, value: String)] {
    parameters
      .map { (name: percentEncode($0.0), value: percentEncode($0.1)) }
      .sorted { lhs, rhs in
        if lhs.name != rhs.name { return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8) }
        return lhs.value.utf8.lexicographicallyPrecedes(rhs.value.utf8)
      }
  }

  static func isFormEncoded(_ contentType: String?) -> Bool {
    guard let contentType else { return false }
    let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == FormEncoding.contentType
  }

  /// Escapes `"` and `\` and drops control characters, for an HTTP quoted-string.
  private static func quotedStringContent(_ value: String) -> String {
    var output = ""
    for scalar in value.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F {
      if scalar == "\"" || scalar == "\\" { output.append("\\") }
      output.unicodeScalars.append(scalar)
    }
    return output
  }
}

/// The result of signing one request: every intermediate value of OAuth 1.0a `HMAC-SHA1`.
///
/// None of these values contains the consumer secret or the token secret. They do contain the
/// `oauth_token` and the request's parameters, so log them only when debugging.
///
/// ```swift
/// let result = try signer.signature(for: request, token: token, tokenSecret: secret,
///                                   nonce: nonce, timestamp: "1318622958")
/// request.headers["Authorization"] = result.authorizationHeader
/// ```
public struct OAuth1Signature: Hashable, Sendable {
  /// The normalized parameter string (sorted, percent-encoded `name=value` pairs).
  public var parameterString: String
  /// The signature base string: `METHOD&enc(base URI)&enc(parameter string)`.
  public var baseString: String
  /// The base64 `oauth_signature`, before percent-encoding.
  public var signature: String
  /// The `Authorization` header value, `OAuth oauth_consumer_key="…", …`.
  public var authorizationHeader: String

  /// Creates a signature result.
  public init(
    parameterString: String, baseString: String, signature: String, authorizationHeader: String
  ) {
    self.parameterString = parameterString
    self.baseString = baseString
    self.signature = signature
    self.authorizationHeader = authorizationHeader
  }
}
