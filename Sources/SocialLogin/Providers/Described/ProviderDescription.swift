import Foundation

/// A login provider written as data: its endpoints, how the client authenticates, where the
/// ID token's keys and the user's subject are, how refresh tokens rotate, what its errors
/// mean and how tokens are revoked.
///
/// The SDK's engine (``DescribedProvider``), the emulator and the CLI all read the same
/// value, so a provider that differs from the others only in data is written once: its
/// description, one registration line, its tests and its article. Code stays hand-written
/// only where a protocol needs it (OAuth 1.0a, Apple's client secret and notifications,
/// Facebook's `debug_token`, Firebase).
///
/// Descriptions are `Codable`, so the CLI can load one from a JSON file
/// (`--provider-file PATH`) and a service can describe a provider the SDK does not ship:
///
/// ```swift
/// var acme = ProviderDescription(
///   id: "acme", displayName: "Acme",
///   endpoints: [
///     ProviderEndpoint(name: "authorize", production: "https://id.acme.example/authorize"),
///     ProviderEndpoint(name: "token", production: "https://id.acme.example/token"),
///     ProviderEndpoint(name: "me", production: "https://api.acme.example/me"),
///   ],
///   identity: IdentityRules(endpoint: "me", subject: "/id"))
/// acme.refresh = RefreshRules(rotation: .always)
/// ```
public struct ProviderDescription: Hashable, Sendable, Codable {
  /// The provider's id; sessions and stores are keyed by it.
  public var id: ProviderID
  /// How messages and the CLI name the provider (`Kakao`, `Yahoo! JAPAN`).
  public var displayName: String
  /// Every endpoint, by the name `--endpoint NAME=URL` and ``DescribedProvider`` use.
  public var endpoints: [ProviderEndpoint]
  /// The settings a provider needs besides the client id and secret, substituted into
  /// endpoint URLs and issuers as `{name}`: Microsoft's `tenant`. Each must be given in
  /// ``DescribedProviderConfiguration/parameters``.
  public var parameters: [String]
  /// How the client authenticates at the token endpoint.
  public var client: ClientRules
  /// The authorization request: scopes, PKCE, extra parameters.
  public var authorization: AuthorizationRules
  /// How token endpoint answers are read.
  public var tokenAnswer: TokenAnswerRules
  /// How ID tokens are verified; `nil` for a provider that issues none (NAVER, GitHub).
  public var idToken: IDTokenRules?
  /// Where the stable subject and the profile fields are.
  public var identity: IdentityRules
  /// How refresh tokens behave.
  public var refresh: RefreshRules
  /// What the provider's errors look like and what each code means.
  public var errors: ErrorDialect
  /// How tokens are revoked.
  public var revocation: RevocationStyle
  /// How an access token that an app sends is checked, when the provider offers a way:
  /// Kakao's `access_token_info`, NAVER's profile API. `nil`: only ID tokens are verified.
  public var accessTokenCheck: AccessTokenCheck?
  /// The device authorization endpoint's name (RFC 8628), when the provider has one.
  public var deviceEndpoint: String?
  /// The channel the provider pushes events on (``ProviderEventChannel``), when it has one.
  public var events: ProviderEventChannel?
  /// How ``RevocationStyle/rfc7009`` revocation differs from the default, if it does
  /// (Google's one call, and `invalid_token` counted as done).
  public var revocationRules: RevocationRules?

  /// Creates a description with RFC 6749 defaults: `client_secret_post`, space-separated
  /// scopes, PKCE S256, numeric `expires_in`, no ID token, refresh tokens that never rotate,
  /// RFC 6749 errors and no revocation.
  public init(
    id: ProviderID,
    displayName: String,
    endpoints: [ProviderEndpoint],
    parameters: [String] = [],
    client: ClientRules = ClientRules(),
    authorization: AuthorizationRules = AuthorizationRules(),
    tokenAnswer: TokenAnswerRules = TokenAnswerRules(),
    idToken: IDTokenRules? = nil,
    identity: IdentityRules,
    refresh: RefreshRules = RefreshRules(),
    errors: ErrorDialect = ErrorDialect(),
    revocation: RevocationStyle = .none,
    accessTokenCheck: AccessTokenCheck? = nil,
    deviceEndpoint: String? = nil,
    events: ProviderEventChannel? = nil,
    revocationRules: RevocationRules? = nil
  ) {
    self.id = id
    self.displayName = displayName
    self.endpoints = endpoints
    self.parameters = parameters
    self.client = client
    self.authorization = authorization
    self.tokenAnswer = tokenAnswer
    self.idToken = idToken
    self.identity = identity
    self.refresh = refresh
    self.errors = errors
    self.revocation = revocation
    self.accessTokenCheck = accessTokenCheck
    self.deviceEndpoint = deviceEndpoint
    self.events = events
    self.revocationRules = revocationRules
  }

  /// The endpoint named `name`, if the description has one.
  public func endpoint(_ name: String) -> ProviderEndpoint? {
    endpoints.first { $0.name == name }
  }

  /// The names `--endpoint NAME=URL` accepts, in order.
  public var endpointNames: [String] { endpoints.map(\.name) }
}
