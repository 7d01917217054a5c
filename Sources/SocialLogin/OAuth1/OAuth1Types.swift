import Foundation

/// The URLs of an OAuth 1.0a provider's three-legged flow.
///
/// ``x`` holds X's production endpoints; ``x(baseURL:)`` points the same paths at another host,
/// for example an emulator or a recording proxy.
///
/// ```swift
/// let production = OAuth1Endpoints.x
/// let emulator = OAuth1Endpoints.x(baseURL: URL(string: "http://127.0.0.1:8089")!)
/// // emulator.requestToken == http://127.0.0.1:8089/oauth/request_token
/// ```
public struct OAuth1Endpoints: Hashable, Sendable {
  /// `POST` endpoint issuing request tokens (step 1).
  public var requestToken: URL
  /// Browser endpoint that skips the consent screen when the user already granted access.
  public var authenticate: URL
  /// Browser endpoint that always shows the consent screen.
  public var authorize: URL
  /// `POST` endpoint exchanging a verified request token for an access token (step 3).
  public var accessToken: URL
  /// `POST` endpoint revoking an access token, signed with that token.
  public var invalidateToken: URL

  /// Creates a set of endpoints.
  public init(
    requestToken: URL, authenticate: URL, authorize: URL, accessToken: URL, invalidateToken: URL
  ) {
    self.requestToken = requestToken
    self.authenticate = authenticate
    self.authorize = authorize
    self.accessToken = accessToken
    self.invalidateToken = invalidateToken
  }

  /// X's endpoints under `baseURL`: `oauth/request_token`, `oauth/authenticate`,
  /// `oauth/authorize`, `oauth/access_token` and `1.1/oauth/invalidate_token`.
  public static func x(baseURL: URL) -> OAuth1Endpoints {
    OAuth1Endpoints(
      requestToken: baseURL.appending(path: "oauth/request_token"),
      authenticate: baseURL.appending(path: "oauth/authenticate"),
      authorize: baseURL.appending(path: "oauth/authorize"),
      accessToken: baseURL.appending(path: "oauth/access_token"),
      invalidateToken: baseURL.appending(path: "1.1/oauth/invalidate_token"))
  }

  /// X's production endpoints on `https://api.x.com`.
  public static let x = OAuth1Endpoints.x(baseURL: xProductionBase)

  // A literal known to parse; the unwrap cannot fail.
  private static let xProductionBase = URL(string: "https://api.x.com")!
}

/// A temporary credential from the request-token step (RFC 5849 §2.1).
///
/// Keep ``secret`` server-side (for example in ``PendingLogin/requestTokenSecret``) until the
/// callback arrives; ``token`` goes into the authorization URL and comes back in the callback.
///
/// ```swift
/// let requestToken = try await client.requestToken(callback: "https://app.example/cb")
/// let url = try client.authorizationURL(requestToken: requestToken.token)
/// ```
public struct OAuth1RequestToken: Hashable, Sendable, CustomStringConvertible {
  /// The request token (`oauth_token`); public, it travels through the browser.
  public var token: String
  /// The request token secret (`oauth_token_secret`).
  public var secret: Secret

  /// Creates a request token.
  public init(token: String, secret: Secret) {
    self.token = token
    self.secret = secret
  }

  /// Names the token; never the secret.
  public var description: String { "OAuth1RequestToken(token: \(token), secret: <redacted>)" }
}

/// The result of the access-token step: a ``Credential`` with the token and its secret, plus
/// the account ids X returns beside them.
///
/// ```swift
/// let result = try await client.accessToken(
///   requestToken: pending.state.revealed, secret: secret, verifier: verifier)
/// store(result.credential, for: result.userID)
/// ```
public struct OAuth1AccessToken: Hashable, Sendable, CustomStringConvertible {
  /// The access token (``Credential/accessToken``) and its secret (``Credential/tokenSecret``),
  /// with token type `oauth1` and no expiry.
  public var credential: Credential
  /// The account's numeric id as a string (`user_id`), when the provider sent it.
  public var userID: String?
  /// The account's handle (`screen_name`), when the provider sent it.
  public var screenName: String?

  /// Creates a result.
  public init(credential: Credential, userID: String? = nil, screenName: String? = nil) {
    self.credential = credential
    self.userID = userID
    self.screenName = screenName
  }

  /// Names the account; never the token or its secret.
  public var description: String {
    "OAuth1AccessToken(userID: \(userID ?? "nil"), screenName: \(screenName ?? "nil"), "
      + "credential: \(credential))"
  }
}
