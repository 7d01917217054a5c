import SocialLogin

/// What a described provider says on the wire that its ``ProviderDescription`` does not
/// (the description tells a client what to send and read, not every answer's shape): Kakao's
/// `KOE` codes and `{code,msg}` API errors, Microsoft's `error_codes`, GitHub's form-encoded
/// answers. Keyed by provider id; a provider without an entry answers plain RFC 6749 and
/// OpenID Connect shapes, so a new description is served with no emulator code.
struct EmulatorDialect: Sendable {
  /// A situation a token endpoint answers with an error.
  enum Situation: Hashable, Sendable {
    case deadRefreshToken, missingRefreshToken, unusableCode, redirectMismatch, badClient
    case pkceMismatch, badRequest, unsupportedGrant, accountDisabled
    case devicePending, deviceSlowDown, deviceDenied, deviceExpired, deviceUnknown
    case deviceFlowDisabled, badTenant
  }

  /// How the provider's APIs (profile, token info, unlink) answer a bad access token.
  enum APIErrors: Sendable {
    /// `401 {"error":"invalid_token"}` with `WWW-Authenticate: Bearer` (OpenID Connect).
    case bearer
    /// Kakao: `{"code":-401,"msg":"..."}`.
    case kakao
    /// NAVER: `{"resultcode":"024","message":"Authentication failed"}`.
    case naver
    /// GitHub: `{"message":"Bad credentials","documentation_url":"..."}`.
    case github
  }

  /// A value the emulator writes for a user: one of the user's fields or a constant.
  enum Field: Sendable {
    case id, name, email, picture, subject
    case text(String)
    case flag(Bool)
  }

  /// `token_type` in token answers.
  var tokenType = "Bearer"
  /// Whether the subject is a JSON number in API answers (Kakao's and GitHub's `id`).
  var numericSubject = false
  /// Whether ID tokens carry `aud` as an array (Yahoo! JAPAN).
  var audienceIsArray = false
  /// Whether an authorization request with `openid` must carry a `nonce` (Yahoo! JAPAN).
  var requiresNonce = false
  /// Whether an authorization request must carry `state` (NAVER).
  var requiresState = false
  /// Whether token answers carrying a refresh token say `refresh_token_expires_in`.
  var refreshExpiresIn = false
  /// Whether answers are form-encoded unless the request accepts JSON (GitHub).
  var formUnlessJSONAccepted = false
  /// What joins scopes in token answers (GitHub: a comma).
  var answerScopeSeparator = " "
  /// The field of the provider's own error code, and its value per situation.
  var errorCodeField: String?
  var errorCodes: [Situation: JSONValue] = [:]
  /// The error name per situation where it is not RFC 6749's.
  var errorNames: [Situation: String] = [:]
  /// The status per situation where it is not 400.
  var errorStatuses: [Situation: Int] = [:]
  /// How the APIs answer a bad token.
  var apiErrors = APIErrors.bearer
  /// Further fields of the profile answer, by pointer.
  var profileExtras: [(JSONPointer, Field)] = []
  /// Further claims of ID tokens.
  var idTokenExtras: [(String, Field)] = []
  /// Where the device login's verification page is (host and path); `nil` puts it at
  /// `/device` on the device endpoint's host.
  var deviceVerification: (host: String, path: String)?
  /// Whether the device answer carries Microsoft's ready-made `message`.
  var deviceMessage = false
  /// The device code's lifetime, seconds.
  var deviceLifetime: Double = 900
  /// Whether `slow_down` carries the new `interval` (GitHub).
  var slowDownCarriesInterval = false
  /// Whether the provider has a tenant path segment whose values it checks (Microsoft).
  var tenants = false

  /// The provider's entry, or plain RFC 6749 / OpenID Connect.
  static func of(_ provider: ProviderID) -> EmulatorDialect {
    table[provider] ?? EmulatorDialect()
  }

  /// The per-provider table.
  static let table: [ProviderID: EmulatorDialect] = [
    .kakao: kakao, .naver: naver, .yahooJapan: yahooJapan, .github: github,
    .microsoft: microsoft,
  ]
}
