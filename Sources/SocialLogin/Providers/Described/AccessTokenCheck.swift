/// How a described provider checks an access token that an app sends (a mobile app that
/// logged in with the provider's SDK and hands the server its token).
public struct AccessTokenCheck: Hashable, Sendable, Codable {
  /// The endpoint's name, called with the token as a bearer token (Kakao's
  /// `access_token_info`, NAVER's profile).
  public var endpoint: String
  /// Where the user's subject is in the answer.
  public var subject: JSONPointer
  /// Where the id of the app the token was issued to is, when the answer says; the token is
  /// proven to be this app's only when it equals ``DescribedProviderConfiguration/appID``.
  /// `nil`: the answer does not say (NAVER), and the verified identity says so.
  public var appID: JSONPointer?
  /// The query parameter the token is sent in, in place of a bearer header (LINE's
  /// `GET /oauth2/v2.1/verify?access_token=…`). Such an answer describes the token, not the
  /// user: the identity endpoint names the user, and a subject in the answer, if any, must
  /// equal it. An RFC 6749 error answer means the token is not valid.
  public var tokenParameter: String?
  /// Where the client id the token was issued to is; it must equal the configured client id
  /// (LINE's `client_id`, the channel id).
  public var clientID: JSONPointer?
  /// Where the token's remaining lifetime in seconds is; it must be positive (LINE's
  /// `expires_in`).
  public var expiresIn: JSONPointer?
  /// Where the token's space-separated scopes are.
  public var scope: JSONPointer?

  /// Creates the check.
  public init(
    endpoint: String, subject: JSONPointer, appID: JSONPointer? = nil,
    tokenParameter: String? = nil, clientID: JSONPointer? = nil, expiresIn: JSONPointer? = nil,
    scope: JSONPointer? = nil
  ) {
    self.endpoint = endpoint
    self.subject = subject
    self.appID = appID
    self.tokenParameter = tokenParameter
    self.clientID = clientID
    self.expiresIn = expiresIn
    self.scope = scope
  }
}
