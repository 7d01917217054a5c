import Foundation
import SocialLogin
import SocialLoginEmulator

/// `sociallogin firebase sign-in` and `sociallogin verify firebase`: exchange a provider's token
/// for a Firebase session kept in the store (so `sociallogin token --provider firebase` prints
/// a fresh ID token), and verify Firebase ID tokens as a backend would.
enum FirebaseCommands {
  static let group = Command(
    name: "firebase", summary: "Firebase Authentication: exchange a provider token for a session.",
    subcommands: [signIn])

  static let signIn = Command(
    name: "sign-in",
    summary: "Sign in to Firebase with a provider's token and store the Firebase session.",
    discussion: """
      Calls accounts:signInWithIdp and prints the Firebase user as JSON (localId, providerId, \
      email, providerUserInfo, rawUserInfo, isNewUser) on stdout. The session is stored under \
      provider id 'firebase': 'sociallogin token --provider firebase' then prints a fresh ID \
      token. With $\(FirebaseProvider.Configuration.emulatorEnvironmentVariable) (or \
      --emulator HOST:PORT, or $\(EmulatorHost.environmentVariable)) requests go to that \
      emulator, and --api-key/--project-id default to the SocialLogin emulator's project. \
      Endpoint names: \(FirebaseProvider.Configuration.endpointNames.joined(separator: ", ")).
      """,
    synopsis: [
      "--api-key KEY --project-id P --provider facebook.com --access-token T",
      "    --provider facebook.com --id-token T --nonce N   (Facebook Limited Login)",
      "    --provider twitter.com --access-token T --oauth-token-secret-env NAME",
      "    --provider google.com|oidc.NAME --id-token T [--nonce N]",
    ],
    options: [
      apiKey, projectID, tenantID, provider, accessToken, idToken, nonce, oauthTokenSecretEnv,
      endpoint, StoreLocation.option, StoreLocation.sealingOption, StoreLocation.keyPrefixOption,
    ],
    run: runSignIn)

  /// `--api-key KEY`.
  static let apiKey = Option.value("--api-key", "KEY", help: "the project's Web API key")
  /// `--project-id P`.
  static let projectID = Option.value("--project-id", "P", help: "the Firebase project id")
  /// `--tenant-id T`.
  static let tenantID = Option.value(
    "--tenant-id", "T", help: "the tenant, for multi-tenant projects")
  /// `firebase sign-in --provider ID`.
  static let provider = Option.value(
    "--provider", "ID", help: "facebook.com, twitter.com, google.com or oidc.NAME")
  /// `firebase sign-in --access-token T`.
  static let accessToken = Option.value(
    "--access-token", "T", help: "the provider's access token (X: OAuth 1.0a token)")
  /// `firebase sign-in --id-token T`: the provider's ID token.
  static let idToken = Option.value("--id-token", "T", help: "the provider's ID token")
  /// `firebase sign-in --nonce N`.
  static let nonce = Option.value("--nonce", "N", help: "the raw nonce of the ID token")
  /// `firebase sign-in --oauth-token-secret-env NAME`.
  static let oauthTokenSecretEnv = Option.value(
    "--oauth-token-secret-env", "NAME",
    help: "read X's OAuth 1.0a token secret from environment variable NAME")
  /// `--endpoint NAME=URL`, repeatable.
  static let endpoint = Option.repeated(
    "--endpoint", "NAME=URL", .namedURL, help: "point one endpoint elsewhere")
  /// `verify firebase --id-token T`: the Firebase ID token to verify.
  static let firebaseIDToken = Option.value(
    "--id-token", "T", help: "the Firebase ID token ('-' reads standard input)")

  static let verify = Command(
    name: "firebase", summary: "Verify a Firebase ID token (RS256, Google's certificates).",
    discussion: """
      Prints the verified claims as JSON (user_id, sign_in_provider, identities, expires_at, \
      claims) on stdout, or the reason on stderr. Unsigned emulator tokens are accepted only \
      with $\(FirebaseProvider.Configuration.emulatorEnvironmentVariable) or --emulator. \
      Endpoint names: certs.
      """,
    options: [firebaseIDToken, projectID, endpoint],
    exitCodes: VerifyCommands.exitCodes,
    run: runVerify)

  // MARK: Configuration

  /// The Firebase emulator: `FIREBASE_AUTH_EMULATOR_HOST`, else `--emulator`, else
  /// `SOCIALLOGIN_EMULATOR_HOST` (the SocialLogin emulator serves Firebase too).
  static func emulator(_ invocation: Invocation) throws -> EmulatorHost? {
    let name = FirebaseProvider.Configuration.emulatorEnvironmentVariable
    if let value = invocation.environment[name], !value.isEmpty {
      do {
        return try EmulatorHost(parsing: value)
      } catch {
        throw UsageError(
          "\(name) must be HOST:PORT with a loopback host (127.0.0.0/8, ::1, localhost), for "
            + "example 127.0.0.1:9099")
      }
    }
    return try invocation.emulatorHost()
  }

  static func configuration(_ invocation: Invocation, needsAPIKey: Bool) throws
    -> FirebaseProvider.Configuration
  {
    let arguments = invocation.arguments
    let emulator = try emulator(invocation)
    let apiKey =
      arguments.value(FirebaseCommands.apiKey)
      ?? (emulator != nil ? EmulatorApps.firebaseAPIKey : nil)
    let projectID =
      arguments.value(FirebaseCommands.projectID)
      ?? (emulator != nil ? EmulatorApps.firebaseProjectID : nil)
    guard let projectID, !projectID.isEmpty else {
      throw UsageError("--project-id is required (or an emulator for its demo project)")
    }
    if needsAPIKey, apiKey?.isEmpty ?? true {
      throw UsageError("--api-key is required (or an emulator for its demo project)")
    }
    var configuration = FirebaseProvider.Configuration(
      apiKey: apiKey ?? "", projectID: projectID,
      tenantID: arguments.value(FirebaseCommands.tenantID),
      emulatorHost: emulator, environment: [:])
    // The CLI's documented emulator switch (`--emulator`, SOCIALLOGIN_EMULATOR_HOST) is its
    // explicit choice to verify the emulator's unsigned ID tokens.
    configuration.acceptsUnsignedEmulatorTokens = emulator != nil
    for (name, url) in arguments.namedURLs(FirebaseCommands.endpoint) {
      guard FirebaseProvider.Configuration.endpointNames.contains(name) else {
        throw UsageError(
          "unknown --endpoint name '\(name)' (known: "
            + FirebaseProvider.Configuration.endpointNames.joined(separator: ", ") + ")")
      }
      try configuration.setEndpoint(name, to: url)
    }
    return configuration
  }

  /// The credential the options describe.
  static func credential(_ invocation: Invocation) throws -> FirebaseCredential {
    let arguments = invocation.arguments
    guard let provider = arguments.value(FirebaseCommands.provider)?.lowercased(), !provider.isEmpty
    else {
      throw UsageError("--provider is required (facebook.com, twitter.com, google.com, oidc.NAME)")
    }
    let accessToken = try arguments.value(FirebaseCommands.accessToken).map {
      Secret(try Console.token($0))
    }
    let idToken = try arguments.value(FirebaseCommands.idToken).map {
      Secret(try Console.token($0))
    }
    let nonce = arguments.value(FirebaseCommands.nonce).map { Secret($0) }
    switch provider {
    case "facebook.com":
      if let idToken {
        guard let nonce else { throw UsageError("a Limited Login --id-token needs --nonce") }
        return .facebookLimitedLogin(idToken: idToken, rawNonce: nonce)
      }
      guard let accessToken else { throw UsageError("give --access-token or --id-token") }
      return .facebook(accessToken: accessToken)
    case "twitter.com":
      guard let accessToken else { throw UsageError("twitter.com needs --access-token") }
      guard let name = arguments.value(FirebaseCommands.oauthTokenSecretEnv) else {
        // An OAuth 2.0 token: Firebase refuses it, and the SDK says why (exit 1).
        return .twitterOAuth2(accessToken: accessToken)
      }
      let secret = try invocation.requiredEnvironment(name, for: "the OAuth 1.0a token secret")
      return .twitter(token: accessToken, secret: Secret(secret))
    case "google.com":
      guard let idToken else { throw UsageError("google.com needs --id-token") }
      return .google(idToken: idToken, accessToken: accessToken)
    default:
      guard provider.hasPrefix("oidc."), provider.count > 5 else {
        throw UsageError(
          "unknown --provider '\(provider)' (facebook.com, twitter.com, google.com, oidc.NAME)")
      }
      guard let idToken else { throw UsageError("\(provider) needs --id-token") }
      return .oidc(provider, idToken: idToken, rawNonce: nonce)
    }
  }

  // MARK: Runs

  static func runSignIn(_ invocation: Invocation) async throws -> Int32 {
    let configuration = try configuration(invocation, needsAPIKey: true)
    let credential = try credential(invocation)
    let location = try await StoreLocation.open(invocation)
    let provider = FirebaseProvider(configuration: configuration)
    let client = try LoginClient(
      providers: [provider], store: location.store, policy: RefreshPolicy(proactiveMargin: nil))
    let firebase = try FirebaseAuth(client: client)
    let signedIn = try await firebase.signIn(with: credential)
    var profile = SessionProfile(kind: .firebase)
    profile.clientID = configuration.apiKey
    profile.issuer = URL(string: configuration.issuer)
    profile.emulator = configuration.emulatorHost?.description
    profile.tenantID = configuration.tenantID
    profile.endpoints = Dictionary(
      invocation.arguments.namedURLs(FirebaseCommands.endpoint).map { ($0.name, $0.url) },
      uniquingKeysWith: { _, last in last })
    try location.profiles.save(profile, for: signedIn.session.key)
    Console.out(try userJSON(signedIn.user) + "\n")
    return 0
  }

  static func runVerify(_ invocation: Invocation) async throws -> Int32 {
    guard let text = invocation.arguments.value(FirebaseCommands.firebaseIDToken) else {
      throw UsageError("--id-token is required")
    }
    let configuration = try configuration(invocation, needsAPIKey: false)
    let provider = FirebaseProvider(configuration: configuration)
    let token = try await provider.verifyIDToken(try Console.token(text))
    var object: [String: JSONValue] = [
      "user_id": .string(token.userID),
      "expires_at": .string(IdentityJSON.iso8601(token.expiresAt)),
      "issued_at": .string(IdentityJSON.iso8601(token.issuedAt)),
      "identities": .object(token.identities.mapValues { .array($0.map { .string($0) }) }),
      "unsigned": .bool(token.isUnsigned),
      "claims": token.claims,
    ]
    if let provider = token.signInProvider { object["sign_in_provider"] = .string(provider) }
    Console.out(IdentityJSON.pretty(.object(object)) + "\n")
    return 0
  }

  /// The user with Firebase's field names, pretty-printed.
  static func userJSON(_ user: FirebaseUser) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(user), as: UTF8.self)
  }

}
