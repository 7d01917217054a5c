// Kakao, NAVER, Yahoo! JAPAN, GitHub and Microsoft: providers written as descriptions (see
// "Kakao Login", "NAVER Login", "Yahoo! JAPAN ID", "Sign in with GitHub", "Sign in with
// Microsoft" and "Describing a provider"):
//   export KAKAO_CLIENT_SECRET=...
//   swift run DescribedProviders
import Foundation
import SocialLogin

let environment = ProcessInfo.processInfo.environment
guard let kakaoSecret = environment["KAKAO_CLIENT_SECRET"] else { exit(0) }
let kakao = DescribedProvider(
  configuration: try DescribedProviderConfiguration(
    .kakao, clientID: "your-rest-api-key", clientSecret: Secret(kakaoSecret)))
let login = try LoginClient(providers: [kakao], store: InMemorySessionStore())
let session = try await login.login(.kakao)
print(await session.identity?.subject ?? "-")

/// Kakao with the app keys whose ID tokens a backend also accepts (a Kakao SDK in the app
/// logs in with the native app key).
func kakaoForApps(restAPIKey: String, nativeAppKey: String, secret: Secret?) throws
  -> DescribedProvider
{
  var configuration = try DescribedProviderConfiguration(
    .kakao, clientID: restAPIKey, clientSecret: secret)
  configuration.audiences = [nativeAppKey]
  return DescribedProvider(configuration: configuration)
}

/// NAVER: the client secret goes with every token request.
func naver(clientID: String, secret: Secret) throws -> DescribedProvider {
  DescribedProvider(
    configuration: try DescribedProviderConfiguration(
      .naver, clientID: clientID, clientSecret: secret))
}

/// Yahoo! JAPAN ID: a server-side client id and its secret (HTTP Basic).
func yahooJapan(clientID: String, secret: Secret) throws -> DescribedProvider {
  var configuration = try DescribedProviderConfiguration(
    .yahooJapan, clientID: clientID, clientSecret: secret)
  configuration.scopes = ["openid", "profile", "email"]
  return DescribedProvider(configuration: configuration)
}

/// GitHub: an OAuth app's client id and secret.
func github(clientID: String, secret: Secret) throws -> DescribedProvider {
  DescribedProvider(
    configuration: try DescribedProviderConfiguration(
      .github, clientID: clientID, clientSecret: secret))
}

/// Microsoft Entra ID: any work, school or personal account (`common`), or one tenant's id.
func microsoft(tenant: String, clientID: String, secret: Secret?) throws -> DescribedProvider {
  DescribedProvider(
    configuration: try DescribedProviderConfiguration(
      .microsoft, clientID: clientID, clientSecret: secret, parameters: ["tenant": tenant]))
}
