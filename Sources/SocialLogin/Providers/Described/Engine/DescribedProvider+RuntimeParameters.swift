import Foundation

extension DescribedProvider {
  /// The authorization request's extra parameters: the description's fixed
  /// ``AuthorizationRules/extraParameters``, then the configuration's run-time
  /// ``DescribedProviderConfiguration/authorizationParameters`` (Google's `access_type`,
  /// `prompt`, `hd`, `login_hint`), in order. The OAuth client refuses a name it sets itself
  /// (`state`, `nonce`, `redirect_uri`, ...) when a login starts, so run-time values cannot
  /// weaken the request.
  static func authorizationParameters(
    of configuration: DescribedProviderConfiguration
  ) -> [URLQueryItem] {
    configuration.description.authorization.extraParameters.map {
      URLQueryItem(name: $0.name, value: $0.value)
    } + configuration.authorizationParameters
  }
}
