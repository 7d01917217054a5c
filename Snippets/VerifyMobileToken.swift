// A backend checking tokens that its mobile app sends: whose is it, and was it issued to *this*
// app? Runs against the provider emulator in-process.
import Foundation
import SocialLogin
import SocialLoginEmulator

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the backend answers when a token does not verify: the typed reasons to switch over.
func answer(to error: AuthError) -> (status: Int, reason: String) {
  if error.isTransient {
    // The provider could not be asked (network, timeout, 5xx, 429): never a "no".
    return (503, "try again later")
  }
  switch error.code {
  case .invalidToken:
    // The token is not valid for this app; the JOSE layer says why for ID tokens.
    switch error.joseError?.reason {
    case .expired?: return (401, "the token expired: sign in again")
    case .nonceMismatch?: return (401, "not the login this server asked for (nonce)")
    case .audienceMismatch?, .authorizedPartyMismatch?: return (401, "issued to another app")
    case .issuerMismatch?: return (401, "issued by someone else")
    case .signatureInvalid?, .malformed?, .keyNotFound?: return (401, "forged or damaged")
    default: return (401, "invalid token")
    }
  case .configuration:
    // Our own settings (a wrong secret, an empty channel secret), not the user's token:
    // alert the team; `error.provider` and the message name the provider and the setting.
    return (500, "server misconfigured")
  case .unsupported:
    return (400, "this provider does not verify that kind of token")
  default:
    // .providerError (the provider refused; see error.oauth and error.providerCode) and
    // anything else: not verified.
    return (401, "not verified")
  }
}

try await ProviderEmulator.run { emulator in
  func facebook(appID: String, appSecret: String) throws -> FacebookProvider {
    FacebookProvider(
      configuration: try FacebookConfiguration(
        appID: appID, appSecret: Secret(appSecret), emulatorHost: emulator.host))
  }
  let x = XProvider(
    configuration: try XProvider.Configuration(
      clientID: EmulatorApps.twitterClientID,
      clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host))
  let backend = try LoginClient(
    providers: [
      try facebook(appID: EmulatorApps.facebookAppID, appSecret: EmulatorApps.facebookAppSecret),
      x,
    ],
    store: InMemorySessionStore())
  // At start-up: a wrong secret stops the deployment here instead of failing every user.
  let report = try await backend.validateConfiguration()
  for error in report.unreachable { print("not checked:", error) }

  // Stand-ins for the tokens apps send: logins against the emulator, one of them by another
  // Facebook app (a game, a quiz) that also has this user's token.
  let browser = LoopbackUserAgent { url in _ = try await URLSession.shared.data(from: url) }
  let facebookToken = try await backend.login(.facebook, using: browser).freshAccessToken()
  let xToken = try await backend.login(.twitter, using: browser).freshAccessToken()
  let otherApp = try LoginClient(
    providers: [
      try facebook(
        appID: EmulatorApps.facebookOtherAppID, appSecret: EmulatorApps.facebookOtherAppSecret)
    ],
    store: InMemorySessionStore())
  let foreignToken = try await otherApp.login(.facebook, using: browser).freshAccessToken()

  for (provider, token) in [(ProviderID.facebook, facebookToken), (.twitter, xToken)] {
    let verified = try await backend.verify(.accessToken(Secret(token)), from: provider)
    switch verified.audience {
    case .proven(let audience):
      // The provider confirmed the token was issued to this app: safe to sign the user in.
      print(provider, "user", verified.identity.subject, "signed in to app", audience)
    case .unprovable(let reason):
      // It identifies the user, but does not prove a login to your app.
      print(provider, "user", verified.identity.subject, "- no proof of audience:", reason)
    }
  }

  // A token issued to another app of the same provider never verifies (token substitution).
  do {
    _ = try await backend.verify(.accessToken(Secret(foreignToken)), from: .facebook)
  } catch let error as AuthError {
    print("another app's token:", error.code)  // invalid_token
    let (status, reason) = answer(to: error)
    print(error.provider ?? "-", status, reason)  // facebook 401 ...
  }
}
