import Foundation
import SocialLogin

/// `sociallogin login oidc|facebook|twitter|line|google`.
enum LoginCommands {
  static let group = Command(
    name: "login", summary: "Sign in through your browser and store the session.",
    discussion: """
      Every provider signs in the same way: the CLI listens on http://127.0.0.1:<port>/callback, \
      prints 'Open this URL to sign in: <url>' on stderr and opens it with $BROWSER (a \
      command; the URL is its last argument), else with the system's opener where there is a \
      desktop, then prints the identity as JSON on stdout and stores the session. It also \
      remembers how the session was made (never a secret) for 'token', 'status' and 'logout'; \
      flags given to a later 'login' override what was remembered, and a login given \
      --client-id or --client-secret-env uses only its own --endpoint flags.

      With --device (no browser on this machine: SSH, a container, a TV) the CLI shows a code \
      and an address on stderr instead; approve on your phone or laptop and the CLI, which \
      polls, prints the identity the same way. On a terminal it also draws a QR code of the \
      address (--no-qr leaves it out). It exits 1 when the login is denied (access_denied) or \
      the code expires (expired_token), 2 when the provider or issuer has no device login. \
      Facebook's device login takes the app's client token (--client-token), never the app \
      secret.
      """,
    subcommands: [oidc] + [ProviderKind.facebook, .twitter, .line, .google].map(command(for:)) + [
      apple
    ] + describedCommands + [custom])

  static let apple = Command(
    name: "apple", summary: "Sign in with Apple: exchange an app's code, or through the browser.",
    discussion: """
      With --authorization-code, exchanges a code an Apple app obtained (no redirect URI \
      unless --redirect-uri; the code lives five minutes and is single use), verifies the ID \
      token, stores the session and prints the identity. Without it, signs in through the \
      browser (response_mode=form_post: the loopback listener accepts the POSTed callback). \
      Apple itself accepts only https return URLs that are not localhost or an IP address, so \
      the browser login works against the emulator (--emulator) or behind your own https \
      redirect. The client secret is signed with the .p8 key of --private-key-file, the team \
      id and the key id; with --emulator and no --client-id, the emulator's app and key.

      Endpoint names: \(AppleConfiguration.endpointNames.joined(separator: ", ")).
      """,
    options: [
      clientID(.apple), teamID, keyID, privateKeyFile, authorizationCode, redirectURI, endpoint,
    ] + flowOptions,
    run: { try await runApple($0) })

  /// `login apple --team-id TEAM`.
  static let teamID = Option.value("--team-id", "TEAM", help: "the Apple Team ID")
  /// `login apple --key-id KID`.
  static let keyID = Option.value("--key-id", "KID", help: "the id of the .p8 key")
  /// `login apple --private-key-file PATH`.
  static let privateKeyFile = Option.value(
    "--private-key-file", "PATH", help: "the .p8 key (PKCS #8 PEM) that signs client secrets")
  /// `login apple --authorization-code CODE`.
  static let authorizationCode = Option.value(
    "--authorization-code", "CODE", help: "a code an Apple app obtained: exchange it")
  /// `login apple --redirect-uri URI`.
  static let redirectURI = Option.value(
    "--redirect-uri", "URI", help: "the redirect URI the code was issued for (web codes only)")

  /// `login apple`: the code exchange, or the browser login.
  static func runApple(_ invocation: Invocation) async throws -> Int32 {
    guard let code = invocation.arguments.value(authorizationCode) else {
      return try await run(.apple, invocation)
    }
    let location = try await StoreLocation.open(invocation)
    let profile = try LoginProfile.make(
      .apple, invocation, remembered: (try? location.profiles.load()) ?? [:])
    let provider = try ProviderFactory.make(try ProviderFactory.resolve(profile, invocation))
    let client = try LoginClient(providers: [provider], store: location.store)
    let session = try await client.signInWithApple(
      authorizationCode: Secret(try Console.token(code)), clientID: profile.clientID,
      redirectURI: invocation.arguments.value(redirectURI))
    return try await finish(session, profile: profile, location: location)
  }

  /// Remembers how the session was made (never a secret) and prints its identity.
  static func finish(_ session: SessionActor, profile: SessionProfile, location: StoreLocation)
    async throws -> Int32
  {
    guard let identity = await session.identity else {
      throw AuthError(.invalidResponse, "The provider did not identify the user.")
    }
    var remembered = profile
    remembered.updatedAt = Date()
    try location.profiles.save(remembered, for: identity.sessionKey)
    Console.out(IdentityJSON.text(identity) + "\n")
    return 0
  }

  static let oidc = Command(
    name: "oidc", summary: "Sign in with any OpenID Connect provider.",
    discussion: """
      Authorization code + PKCE + nonce; the ID token is verified. The endpoints come from the \
      issuer's discovery document. With --emulator and no --issuer, the emulator's OpenID \
      provider (http://HOST:PORT/oidc) is used.
      """,
    options: [issuer] + clientOptions(.oidc) + flowOptions,
    run: { try await run(.oidc, $0) })

  static func command(for kind: ProviderKind) -> Command {
    var options = clientOptions(kind) + flowOptions
    options.append(endpoint)
    if kind == .google { options += googleOptions }
    if kind == .facebook { options += facebookOptions }
    var names = "Endpoint names: \(kind.endpointNames(oauth1: false).joined(separator: ", "))."
    if kind == .twitter {
      options.append(oauth1)
      names = """
        Endpoint names (OAuth 2.0): \(kind.endpointNames(oauth1: false).joined(separator: ", ")).
        Endpoint names (--oauth1): \(kind.endpointNames(oauth1: true).joined(separator: ", ")).
        """
    }
    return Command(
      name: kind.rawValue, summary: "Sign in with \(kind.displayName).",
      discussion: """
        The client comes from --client-id and --client-secret-env, else from \
        $\(kind.clientIDVariable) and $\(kind.clientSecretVariable), else from the last \
        login with this provider; with an emulator and no client id, the emulator's default \
        app is used.

        \(names)
        """,
      options: options, run: { try await run(kind, $0) })
  }

  /// `login oidc --issuer URL`.
  static let issuer = Option.value(
    "--issuer", "URL", .httpURL, help: "the issuer (discovery is read under it)")
  /// `--endpoint NAME=URL`, repeatable (not for `oidc`: its endpoints come from discovery).
  static let endpoint = Option.repeated(
    "--endpoint", "NAME=URL", .namedURL,
    help: "point one endpoint elsewhere (a staging server, a test peer)")
  /// `login twitter --oauth1`.
  /// Google: `--hosted-domain D`, repeatable.
  static let hostedDomain = Option.repeated(
    "--hosted-domain", "D",
    help: "admit only accounts of this Google Workspace domain (sent as 'hd', enforced on the "
      + "ID token)")
  /// Google: `--app-client-id ID`, repeatable.
  static let appClientID = Option.repeated(
    "--app-client-id", "ID",
    help: "also accept ID tokens of this Android or iOS client id (in azp or aud)")
  /// Google's own options.
  static let googleOptions = [hostedDomain, appClientID]
  static let oauth1 = Option.flag(
    "--oauth1", help: "use X's legacy OAuth 1.0a flow (consumer key and secret)")
  /// `--scope S`, repeatable.
  static let scope = Option.repeated(
    "--scope", "S", help: "a scope to request (default: the provider's)")
  /// `--redirect-port N`.
  static let redirectPort = Option.value(
    "--redirect-port", "N", .port,
    help: "fixed loopback port (register http://127.0.0.1:N/callback); default: any free port")
  /// `--no-browser`.
  static let noBrowser = Option.flag(
    "--no-browser", help: "only print the URL; do not try to open a browser")
  /// `--timeout SECONDS`.
  static let timeout = Option.value(
    "--timeout", "SECONDS", .positiveSeconds,
    help: "give up waiting for the browser after SECONDS (default 300)")

  /// `--client-id ID`; its help names `kind`'s environment variable.
  static func clientID(_ kind: ProviderKind) -> Option {
    .value(
      "--client-id", "ID",
      help: "the client id (app id, channel id) (default: $\(kind.clientIDVariable))")
  }

  /// `--client-secret-env NAME`; its help names `kind`'s environment variable.
  static func clientSecretEnv(_ kind: ProviderKind) -> Option {
    .value(
      "--client-secret-env", "NAME",
      help: "read the client secret from environment variable NAME "
        + "(default: $\(kind.clientSecretVariable) when set)")
  }

  static func clientOptions(_ kind: ProviderKind) -> [Option] {
    [clientID(kind), clientSecretEnv(kind)]
  }

  static let flowOptions: [Option] = [
    scope, redirectPort, noBrowser, paste, device, noQR, timeout, StoreLocation.option,
    StoreLocation.sealingOption,
    StoreLocation.keyPrefixOption,
  ]

  /// Runs a login with `kind`; `providerFile` is the description `login custom` read from
  /// `--provider-file` (read once, so the profile keeps exactly what the kind came from).
  static func run(
    _ kind: ProviderKind, _ invocation: Invocation,
    providerFile: ProviderDescription? = nil
  ) async throws -> Int32 {
    let arguments = invocation.arguments
    let location = try await StoreLocation.open(invocation)
    let profile = try LoginProfile.make(
      kind, invocation, remembered: (try? location.profiles.load()) ?? [:],
      providerFile: providerFile)
    var resolved = try ProviderFactory.resolve(profile, invocation)
    if arguments.flag(device) { try prepareDevice(&resolved, invocation) }
    let provider = try ProviderFactory.make(resolved)
    if arguments.flag(device) {
      return try await runDevice(
        provider, profile: profile, location: location, scopes: nil,
        qr: drawsQR(arguments))
    }
    if arguments.flag(paste) {
      guard arguments.flag(noBrowser) else {
        throw UsageError("--paste needs --no-browser")
      }
      return try await runPaste(provider, profile: profile, location: location)
    }
    let timeout = arguments.seconds(Self.timeout).map { Duration.seconds($0) }
    let noBrowserHere = !canOpenBrowser(environment: invocation.environment)
    let agent = LoopbackUserAgent(
      port: profile.redirectPort ?? 0, timeout: timeout ?? LoopbackUserAgent.defaultTimeout,
      openBrowser: arguments.flag(Self.noBrowser)
        ? printURL
        : noBrowserHere
          ? noBrowserOpener(for: provider)
          : LoopbackUserAgent.systemBrowser(environment: invocation.environment))
    let client = try LoginClient(providers: [provider], store: location.store, userAgent: agent)
    let session: SessionActor
    do {
      session = try await client.login(provider.id, using: agent)
    } catch is CancellationError {
      throw CommandExit(status: 130, message: "Login cancelled.")
    } catch let error as AuthError where error.code == .timedOut {
      throw CommandExit(
        status: 1,
        message: CommandRunner.describe(error) + " No browser came back in time."
          + (noBrowserHere && provider is any DeviceLoginProvider
            ? " Without a browser here, try --device." : ""))
    }
    return try await finish(session, profile: profile, location: location)
  }

  /// Prints the URL only (`--no-browser`).
  static let printURL: BrowserOpener = { url in
    Console.error("Open this URL to sign in: \(url.absoluteString)\n")
  }
}

/// Settles a login's profile: flags, then `SOCIALLOGIN_<PROVIDER>_*`, then the last login
/// with the same provider, flow and emulator, then the emulator's default app.
///
/// A login whose client is given explicitly (`--client-id` or `--client-secret-env`) does not
/// inherit the remembered endpoints: they belonged to another client's login, and would send
/// this client's secret and codes wherever that login pointed them. Only its own `--endpoint`
/// flags apply.
enum LoginProfile {
  static func make(
    _ kind: ProviderKind, _ invocation: Invocation, remembered: [String: SessionProfile],
    providerFile: ProviderDescription? = nil
  ) throws -> SessionProfile {
    let arguments = invocation.arguments
    let environment = invocation.environment
    let oauth1 = arguments.flag(LoginCommands.oauth1)
    let emulator = try invocation.emulatorHost()
    var profile =
      remembered.values
      .filter { $0.kind == kind && $0.oauth1 == oauth1 && $0.emulator == emulator?.description }
      .max { $0.updatedAt < $1.updatedAt } ?? SessionProfile(kind: kind)
    profile.oauth1 = oauth1
    profile.emulator = emulator?.description
    let clientID = LoginCommands.clientID(kind)
    let clientSecretEnv = LoginCommands.clientSecretEnv(kind)
    let appID = kind == .facebook ? arguments.value(LoginCommands.appID) : nil
    if arguments.has(clientID) || arguments.has(clientSecretEnv) || appID != nil {
      profile.endpoints = [:]
    }
    if let id = arguments.value(clientID) ?? appID ?? nonEmpty(environment[kind.clientIDVariable]) {
      profile.clientID = id
      profile.usesEmulatorApp = false
    }
    if let name = arguments.value(clientSecretEnv) {
      profile.clientSecretVariable = name
    } else if nonEmpty(environment[kind.clientSecretVariable]) != nil {
      profile.clientSecretVariable = kind.clientSecretVariable
    }
    if emulator != nil, profile.clientID == nil,
      let app = EmulatorDefaults.defaultApp(
        for: kind, oauth1: oauth1, described: providerFile ?? profile.providerDescription)
    {
      profile.clientID = app.clientID
      profile.clientSecretVariable = nil
      profile.usesEmulatorApp = true
      if !app.parameters.isEmpty { profile.parameters = app.parameters }
      if let appID = app.appID { profile.appID = appID }
    }
    if let issuer = arguments.url(LoginCommands.issuer) {
      profile.issuer = issuer
    } else if profile.issuer == nil, kind == .oidc, let emulator {
      profile.issuer = EmulatorDefaults.oidcIssuer(emulator)
    }
    let scopes = arguments.all(LoginCommands.scope).flatMap {
      $0.split(separator: " ").map(String.init)
    }
    if !scopes.isEmpty { profile.scopes = scopes }
    for (name, url) in arguments.namedURLs(LoginCommands.endpoint) { profile.endpoints[name] = url }
    if let port = arguments.port(LoginCommands.redirectPort) { profile.redirectPort = port }
    if kind == .google {
      let domains = arguments.all(LoginCommands.hostedDomain)
      if !domains.isEmpty { profile.hostedDomains = domains }
      let apps = arguments.all(LoginCommands.appClientID)
      if !apps.isEmpty { profile.appClientIDs = apps }
    }
    if let providerFile { profile.providerDescription = providerFile }
    if kind.isDescribed { try DescribedLogin.apply(kind, invocation, to: &profile) }
    if kind == .apple {
      if let team = arguments.value(LoginCommands.teamID) { profile.teamID = team }
      if let key = arguments.value(LoginCommands.keyID) { profile.keyID = key }
      if let path = arguments.value(LoginCommands.privateKeyFile) {
        // Remembered as an absolute path: `token` and `logout` sign client secrets with it.
        profile.privateKeyFile = URL(fileURLWithPath: path).standardizedFileURL.path
        profile.usesEmulatorApp = false
      }
    }
    return profile
  }

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
