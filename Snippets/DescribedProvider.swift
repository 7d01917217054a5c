// Sign in with a provider written as data (see the "Describing a provider" article):
//   export ACME_CLIENT_ID=...        # the client id from Acme's console
//   export ACME_CLIENT_SECRET=...    # its secret, if the app has one
//   swift run DescribedProvider
import Foundation
import SocialLogin

// The provider as data: endpoints by name, where the subject is, how refresh tokens rotate
// and what the error codes mean.
var acme = ProviderDescription(
  id: "acme", displayName: "Acme",
  endpoints: [
    ProviderEndpoint(name: "authorize", production: "https://id.acme.example/authorize"),
    ProviderEndpoint(name: "token", production: "https://id.acme.example/token", method: .post),
    ProviderEndpoint(name: "me", production: "https://api.acme.example/me"),
  ],
  identity: IdentityRules(endpoint: "me", subject: "/id", name: ["/display_name", "/login"]))
acme.refresh = RefreshRules(rotation: .always)
acme.errors = ErrorDialect(signOut: ["invalid_grant"], configuration: ["invalid_client"])

// A description is Codable: the same value can come from a JSON file.
let file = try JSONEncoder().encode(acme)
let loaded = try JSONDecoder().decode(ProviderDescription.self, from: file)

// A built-in description needs only the app's settings.
var kakao = try DescribedProviderConfiguration(.kakao, clientID: "REST_API_KEY")
kakao.audiences = ["NATIVE_APP_KEY"]  // ID tokens the Kakao SDK got in the app
kakao.appID = "1234567"  // access tokens the app sends must carry this app_id

let environment = ProcessInfo.processInfo.environment
guard let clientID = environment["ACME_CLIENT_ID"] else {
  print("Set ACME_CLIENT_ID (and ACME_CLIENT_SECRET if the app has a secret).")
  exit(0)
}
let configuration = try DescribedProviderConfiguration(
  loaded, clientID: clientID, clientSecret: environment["ACME_CLIENT_SECRET"].map { Secret($0) })
let providers = [
  DescribedProvider(configuration: configuration), DescribedProvider(configuration: kakao),
]

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("DescribedLogin")
let client = try LoginClient(
  providers: providers, store: try FileSessionStore(directory: directory))
let session = try await client.login("acme", using: LoopbackUserAgent(port: 8765))
print("signed in as", await session.identity?.subject ?? "?")
