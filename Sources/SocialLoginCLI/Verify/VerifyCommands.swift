import Foundation
import SocialLogin

/// `sociallogin verify facebook|twitter|line|oidc`: checks a token that a mobile or web app
/// obtained from the provider itself, as a backend would.
enum VerifyCommands {
  static let group = Command(
    name: "verify", summary: "Verify a token a mobile or web app sent, as a backend would.",
    discussion: """
      Prints the verified identity as one JSON document on stdout (provider, subject, profile, \
      claims, expires_at, scopes, and whether the token was proven to be issued to your app: \
      "audience"), or a one-line reason on stderr that names the provider's own error code. \
      A token of '-' is read from standard input (it stays out of the process list). \
      Facebook ID tokens and LINE access and ES256 ID tokens need only --client-id: \
      --client-secret-env is then optional.
      """,
    subcommands: [ProviderKind.facebook, .twitter, .line, .oidc].map(command(for:))
      + [FirebaseCommands.verify])

  static let exitCodes: [ExitCode] = [
    ExitCode(status: 0, meaning: "verified (the identity is on stdout)"),
    ExitCode(status: 1, meaning: "rejected or the provider failed (reason on stderr)"),
    ExitCode(status: 2, meaning: "bad usage"),
    ExitCode(status: 130, meaning: "interrupted (Ctrl-C)"),
  ]

  static func command(for kind: ProviderKind) -> Command {
    var options: [Option] = [.value("--access-token", "T", help: "an OAuth 2.0 access token")]
    var synopsis = "(--access-token T | --id-token T [--nonce N])"
    if kind == .twitter {
      // X issues no ID tokens; its legacy apps hold OAuth 1.0a tokens instead.
      options += [
        .value("--oauth1-token", "T", help: "an OAuth 1.0a access token"),
        .value(
          "--oauth1-secret-env", "NAME",
          help: "read the OAuth 1.0a token secret from environment variable NAME"),
      ]
      synopsis = "(--access-token T | --oauth1-token T --oauth1-secret-env NAME)"
    } else {
      options += [
        .value(
          "--id-token", "T",
          help: kind == .facebook
            ? "a Limited Login ID token (OpenID Connect)" : "an OpenID Connect ID token"),
        .value("--nonce", "N", help: "the nonce the ID token must carry"),
      ]
    }
    if kind == .oidc {
      options.append(.value("--issuer", "URL", .httpURL, help: "the issuer"))
    }
    options += LoginCommands.clientOptions(kind)
    var discussion = ""
    if kind != .oidc {
      options.append(
        .repeated("--endpoint", "NAME=URL", .namedURL, help: "point one endpoint elsewhere"))
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
    let given = ["--access-token", "--id-token", "--oauth1-token"].filter(arguments.has)
    guard given.count == 1 else {
      throw UsageError(
        kind == .twitter
          ? "give exactly one of --access-token or --oauth1-token"
          : "give exactly one of --access-token or --id-token")
    }
    if arguments.has("--nonce"), !arguments.has("--id-token") {
      throw UsageError("--nonce goes with --id-token")
    }
    let token: ExternalToken
    var oauth1 = false
    if let text = arguments.value("--access-token") {
      token = .accessToken(Secret(try read(text)))
    } else if let text = arguments.value("--id-token") {
      token = .idToken(Secret(try read(text)), nonce: arguments.value("--nonce"))
    } else {
      guard let name = arguments.value("--oauth1-secret-env") else {
        throw UsageError("--oauth1-token needs --oauth1-secret-env NAME")
      }
      let secret = try invocation.requiredEnvironment(name, for: "the OAuth 1.0a token secret")
      token = .oauth1(
        token: Secret(try read(arguments.value("--oauth1-token") ?? "")), secret: Secret(secret))
      oauth1 = true
    }
    var flags = invocation
    if oauth1 { flags.arguments.flags.insert("--oauth1") }
    let profile = try LoginProfile.make(kind, flags, remembered: [:])
    var resolved = try ProviderFactory.resolve(profile, invocation)
    // Facebook ID tokens need the app id alone; LINE access tokens and ES256 ID tokens the
    // channel id alone (an HS256 ID token then fails, naming the missing secret).
    switch (kind, token) {
    case (.facebook, .idToken), (.line, .accessToken), (.line, .idToken):
      resolved.requiresSecret = false
    default: break
    }
    let provider = try ProviderFactory.make(resolved)
    let verified = try await provider.verify(token)
    guard verified.identity.provider == provider.id else {
      throw AuthError(
        .invalidToken, "The provider vouched for an identity of another provider.",
        provider: provider.id)
    }
    Console.out(IdentityJSON.text(verified) + "\n")
    return 0
  }

  /// The token itself, or standard input for `-`.
  private static func read(_ text: String) throws(UsageError) -> String {
    guard text == "-" else { return text }
    let data = FileHandle.standardInput.readDataToEndOfFile()
    let token = String(decoding: data, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty else { throw UsageError("standard input held no token") }
    return token
  }
}
