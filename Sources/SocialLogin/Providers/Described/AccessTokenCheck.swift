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

  /// Creates the check.
  public init(endpoint: String, subject: JSONPointer, appID: JSONPointer? = nil) {
    self.endpoint = endpoint
    self.subject = subject
    self.appID = appID
  }
}
