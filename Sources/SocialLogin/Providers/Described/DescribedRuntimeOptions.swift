import Foundation

/// Per-login settings a provider's own configuration type adds on top of its description
/// (``LINEConfiguration``'s `max_age`, `id_token_key_type` and secret-less refresh), handed to
/// the ``DescribedProvider`` that runs it. Its authorization parameters (`prompt`,
/// `bot_prompt`) go through the public ``DescribedProviderConfiguration/authorizationParameters``
/// as Google's do.
struct DescribedRuntimeOptions: Hashable, Sendable {
  /// Fields the code exchange sends besides the OAuth ones (LINE's `id_token_key_type=JWK`).
  var exchangeFields: [AuthorizationRules.Parameter] = []
  /// `max_age` in seconds, checked against a login's ID token's `auth_time`.
  var maxAge: Int?
  /// Whether refresh and revocation send the client secret; `false` sends `client_id` alone
  /// (LINE's mobile channels).
  var sendsSecretOnRefreshAndRevocation = true
  /// How long a pending login may wait for its callback; the OAuth default when `nil`.
  var pendingLoginLifetime: TimeInterval?
  /// The timeout of each request; the engine's defaults when `nil`.
  var requestTimeout: Duration?
}
