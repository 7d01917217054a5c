import Foundation
import SocialLogin

/// `sociallogin verify facebook|twitter|line|google|oidc`: checks a token that a mobile or web app
/// obtained from the provider itself, as a backend would.
enum VerifyCommands {
  static let group = Command(
    name: "verify", summary: "Verify a token a mobile or web app sent, as a backend would.",
    discussion: """
      Prints the verified identity as one JSON document on stdout (provider, subject, profile, \
      claims, expires_at, scopes, and whether the token was proven to be issued to your app: \
      "audience"), or a one-line reason on stderr that names the provider's own error code. \
      A token of '-' is read from standard input (it stays out of the process list). \
      Facebook and Google ID tokens and LINE access and ES256 ID tokens need only --client-id: \
      --client-secret-env is then optional.
      """,
    subcommands: [ProviderKind.facebook, .twitter, .line, .google, .oidc, .apple].map(command(for:))
      + ProviderDescription.builtIn.map { command(for: .described($0)) }
      + [FirebaseCommands.verify])

  static let exitCodes: [ExitCode] = [
    ExitCode(status: 0, meaning: "verified (the identity is on stdout)"),
    ExitCode(status: 1, meaning: "rejected or the provider failed (reason on stderr)"),
    ExitCode(status: 2, meaning: "bad usage"),
    ExitCode(status: 130, meaning: "interrupted (Ctrl-C)"),
  ]

  /// `--access-token T`.
  static let accessToken = Option.value("--access-token", "T", help: "an OAuth 2.0 access token")
  /// `verify twitter --oauth1-token T`.
  static let oauth1Token = Option.value("--oauth1-token", "T", help: "an OAuth 1.0a access token")
  /// `verify twitter --oauth1-secret-env NAME`.
  static let oauth1SecretEnv = Option.value(
    "--oauth1-secret-env", "NAME",
    help: "read the OAuth 1.0a token secret from environment variable NAME")
  /// `--nonce N`, with `--id-token`.
  static let nonce = Option.value("--nonce", "N", help: "the nonce the ID token must carry")
  /// `--any-nonce`, with `--id-token`: the explicit opt-out.
  static let anyNonce = Option.flag(
    "--any-nonce",
    help: "accept the ID token whatever nonce it carries (without --nonce or --any-nonce, a "
      + "token's nonce must be one 'sociallogin nonce' issued in --store, and is used up)")

  /// `--id-token T`; its help says which ID tokens `kind` issues.
  static func idToken(_ kind: ProviderKind) -> Option {
    .value(
      "--id-token", "T",
      help: kind == .facebook
        ? "a Limited Login ID token (OpenID Connect)" : "an OpenID Connect ID token")
  }

  static func command(for kind: ProviderKind) -> Command {
    var options: [Option] = [accessToken]
    var synopsis = "(--access-token T | --id-token T [--nonce N | --any-nonce])"
    if let description = kind.builtInDescription {
      // A described provider verifies what it can: ID tokens when it issues them, access
      // tokens when it has a check for them.
      options = description.accessTokenCheck == nil ? [] : [accessToken]
      if description.accessTokenCheck?.appID != nil { options.append(LoginCommands.describedAppID) }
      var forms = description.accessTokenCheck == nil ? [] : ["--access-token T"]
      if description.idToken != nil {
        options += [idToken(kind), nonce, anyNonce]
        forms.append("--id-token T [--nonce N | --any-nonce]")
      }
      options += [StoreLocation.option, StoreLocation.sealingOption, StoreLocation.keyPrefixOption]
      synopsis = forms.count == 1 ? forms[0] : "(" + forms.joined(separator: " | ") + ")"
    } else if kind == .twitter {
      // X issues no ID tokens; its legacy apps hold OAuth 1.0a tokens instead.
      options += [oauth1Token, oauth1SecretEnv]
      synopsis = "(--access-token T | --oauth1-token T --oauth1-secret-env NAME)"
    } else {
      options += [
        idToken(kind), nonce, anyNonce, StoreLocation.option, StoreLocation.sealingOption,
        StoreLocation.keyPrefixOption,
      ]
    }
    if kind == .oidc {
      options.append(LoginCommands.issuer)
    }
    if kind == .google { options += LoginCommands.googleOptions }
    options += LoginCommands.clientOptions(kind)
    options += (kind.builtInDescription?.parameters ?? []).map(LoginCommands.parameterOption)
    var discussion = ""
    if kind != .oidc {
      options.append(LoginCommands.endpoint)
      discussion =
        "Endpoint names: "
        + kind.endpointNames(oauth1: false).joined(separator: ", ") + "."
      if kind == .twitter {
        discussion +=
          " With --oauth1-token: "
          + kind.endpointNames(oauth1: true).joined(separator: ", ") + "."
      }
    }
    return Command(
      name: kind.rawValue, summary: "Verify a token issued by \(kind.displayName).",
      discussion: discussion,
      synopsis: [
        synopsis,
        "    [--client-id ID] [--client-secret-env NAME]"
          + (kind == .oidc ? " [--issuer URL]" : " [--endpoint NAME=URL]..."),
      ],
      options: options, exitCodes: exitCodes,
      run: { try await run(kind, $0) })
  }

  static func run(_ kind: ProviderKind, _ invocation: Invocation) async throws -> Int32 {
    let arguments = invocation.arguments
    let idToken = Self.idToken(kind)
    let given = [accessToken, idToken, oauth1Token].filter(arguments.has)
    guard given.count == 1 else {
      if let description = kind.builtInDescription {
        if description.idToken == nil { throw UsageError("--access-token T is required") }
        if description.accessTokenCheck == nil { throw UsageError("--id-token T is required") }
      }
      throw UsageError(
        kind == .twitter
          ? "give exactly one of --access-token or --oauth1-token"
          : "give exactly one of --access-token or --id-token")
    }
    if !arguments.has(idToken), arguments.has(nonce) || arguments.flag(anyNonce) {
      throw UsageError("\(arguments.has(nonce) ? "--nonce" : "--any-nonce") goes with --id-token")
    }
    if arguments.has(nonce), arguments.flag(anyNonce) {
      throw UsageError("give --nonce N or --any-nonce, not both")
    }
    let token: ExternalToken
    var oauth1 = false
    if let text = arguments.value(accessToken) {
      token = .accessToken(Secret(try Console.token(text)))
    } else if let text = arguments.value(idToken) {
      let idToken = Secret(try Console.token(text))
      token =
        arguments.flag(anyNonce)
        ? .idTokenAcceptingAnyNonce(idToken)
        : .idToken(idToken, nonce: arguments.value(nonce).map { Secret($0) })
    } else {
      guard let name = arguments.value(oauth1SecretEnv) else {
        throw UsageError("--oauth1-token needs --oauth1-secret-env NAME")
      }
      let secret = try invocation.requiredEnvironment(name, for: "the OAuth 1.0a token secret")
      token = .oauth1(
        token: Secret(try Console.token(arguments.value(oauth1Token) ?? "")), secret: Secret(secret)
      )
      oauth1 = true
    }
    var flags = invocation
    if oauth1 { flags.arguments.flags.insert(LoginCommands.oauth1.name) }
    let profile = try LoginProfile.make(kind, flags, remembered: [:])
    var resolved = try ProviderFactory.resolve(profile, invocation)
    // Facebook ID tokens need the app id alone; LINE access tokens and ES256 ID tokens the
    // channel id alone (an HS256 ID token then fails, naming the missing secret).
    switch (kind, token) {
    case (.facebook, .idToken), (.line, .accessToken), (.line, .idToken), (.google, .idToken):
      resolved.requiresSecret = false
    default:
      // A described provider checks what apps send with public keys or the token itself;
      // only HS256 ID tokens (keyed with the secret) need the secret.
      if let description = kind.builtInDescription {
        resolved.requiresSecret = description.idToken?.verification == .clientSecretHS256
      }
    }
    let provider = try ProviderFactory.make(resolved)
    let verified: VerifiedIdentity
    if case .idToken(let idToken, nil) = token,
      ExternalToken.idTokenAcceptingAnyNonce(idToken) != token
    {
      // The token carries a nonce and none was given: it must be one `sociallogin nonce`
      // issued in the store, and this verification uses it up.
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      verified = try await client.verify(
        idToken: idToken, from: provider.id,
        nonces: NonceIssuer(store: try await NonceCommand.store(invocation)))
    } else {
      verified = try await provider.verify(token)
    }
    guard verified.identity.provider == provider.id else {
      throw AuthError(
        .invalidToken, "The provider vouched for an identity of another provider.",
        provider: provider.id)
    }
    Console.out(IdentityJSON.text(verified) + "\n")
    return 0
  }

}
