// Settings that follow the providers' 2024–2026 changes (see the Facebook, X and LINE
// articles). Compiled with the package; nothing runs.
import Foundation
import SocialLogin

/// Facebook: a Graph API version close to its expiry is logged as a warning.
func warnAboutGraphVersion(_ facebook: FacebookProvider, store: any SessionStore) throws
  -> LoginClient
{
  let logger = AuthLogger(minimumLevel: .warning) { print($0.message) }
  let login = try LoginClient(providers: [facebook], store: store, logger: logger)
  // "The Graph API version v21.0 expires on 2027-01-21, in 50 days; move ..."
  if let warning = facebook.configuration.graphAPIVersionWarning(at: Date()) { print(warning) }
  return login
}

/// X: how long the identity of an access token is reused.
func xIdentityCache(id: String, secret: Secret) throws -> XProvider.Configuration {
  var configuration = try XProvider.Configuration(clientID: id, clientSecret: secret)
  configuration.identityCache.maximumAge = 300
  configuration.identityCache.isEnabled = false  // ask X every time
  return configuration
}

/// LINE: ES256 ID tokens for a web login.
func lineES256(channelID: String, secret: Secret) throws -> LINEConfiguration {
  var configuration = try LINEConfiguration(channelID: channelID, channelSecret: secret)
  configuration.requestsES256IDTokens = true
  return configuration
}
