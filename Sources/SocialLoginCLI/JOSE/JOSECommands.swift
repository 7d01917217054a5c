import Foundation
import SocialLogin

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `sociallogin jws verify` and `sociallogin jwt verify`.
enum JOSECommands {
  /// `--jwk FILE`.
  static let jwk = Option.value("--jwk", "FILE", help: "verify with the JSON Web Key in FILE")
  /// `--jwks FILE`.
  static let jwks = Option.value(
    "--jwks", "FILE", help: "verify with the JSON Web Key Set in FILE (chosen by kid)")
  /// `jwt verify --jwks-url URL`.
  static let jwksURL = Option.value(
    "--jwks-url", "URL", .httpURL,
    help: "fetch the key set from URL (mapped onto --emulator when that flag is given; "
      + "$\(EmulatorHost.environmentVariable) alone never moves it)")
  /// `jwt verify --hs-secret-env NAME`.
  static let hsSecretEnv = Option.value(
    "--hs-secret-env", "NAME", help: "verify HS256 with the secret in environment variable NAME")
  /// `jwt verify --iss ISSUER`.
  static let issuer = Option.value("--iss", "ISSUER", help: "require this issuer")
  /// `jwt verify --aud AUDIENCE`.
  static let audience = Option.value("--aud", "AUDIENCE", help: "require this audience")
  /// `jwt verify --nonce NONCE`.
  static let nonce = Option.value("--nonce", "NONCE", help: "require this nonce")
  /// `jwt verify --leeway SECONDS`.
  static let leeway = Option.value(
    "--leeway", "SECONDS", .nonNegativeSeconds,
    help: "clock-skew tolerance for exp, nbf and iat (default 60)")
  /// `jwt verify --now UNIX_TIME`.
  static let now = Option.value(
    "--now", "UNIX_TIME", .unixTime, help: "check the claims as of this time")

  static let keyOptions: [Option] = [jwk, jwks]

  static let algorithm = Option.repeated(
    "--alg", "ALG", .choice(JWSAlgorithm.allCases.map(\.rawValue)),
    help: "accept only ALG (default: every supported algorithm; the key's type and 'alg' "
      + "still pin it)")

  static let token = Argument(
    name: "TOKEN", help: "the compact token; '-' reads it from standard input")

  static let jws = Command(
    name: "jws", summary: "Check compact JWS signatures.",
    subcommands: [
      Command(
        name: "verify", summary: "Verify a compact JWS signature and print the payload bytes.",
        discussion: """
          Checks the signature only (no claims) and prints the payload bytes unchanged on \
          stdout. Keys marked for encryption ("use": "enc") are refused.
          """,
        synopsis: ["(--jwk FILE | --jwks FILE) [--alg ALG]... TOKEN"],
        options: keyOptions + [algorithm], arguments: [token],
        exitCodes: verifyExitCodes,
        run: { invocation in
          let options = try JOSEOptions(invocation, isJWT: false)
          let verifier = JWSVerifier(allowedAlgorithms: options.allowedAlgorithms)
          let jws = try await verifier.verify(
            try options.readToken(), resolver: try options.resolver())
          Console.out(jws.payload)
          return 0
        })
    ])

  static let jwt = Command(
    name: "jwt", summary: "Check JWTs: signature and claims.",
    subcommands: [
      Command(
        name: "verify", summary: "Verify a JWT's signature and claims.",
        discussion: """
          Checks the signature and the claims (exp is required; iss, aud and nonce when \
          given; leeway defaults to 60 s) and prints {"header":…,"claims":…} as JSON on \
          stdout. Keys marked for encryption are refused.
          """,
        synopsis: [
          "(--jwk FILE | --jwks FILE | --jwks-url URL | --hs-secret-env NAME)",
          "    [--alg ALG]... [--iss ISSUER] [--aud AUDIENCE] [--nonce NONCE]",
          "    [--leeway SECONDS] [--now UNIX_TIME] TOKEN",
        ],
        options: keyOptions + [
          jwksURL, hsSecretEnv, algorithm, issuer, audience, nonce, leeway, now,
        ],
        arguments: [token],
        exitCodes: verifyExitCodes,
        run: { invocation in
          let options = try JOSEOptions(invocation, isJWT: true)
          var policy = JWTClaimsPolicy(
            issuer: options.arguments.value(issuer),
            audience: options.arguments.value(audience),
            nonce: options.arguments.value(nonce),
            leeway: options.arguments.number(leeway) ?? 60)
          policy.requiresAuthorizedPartyForMultipleAudiences = options.arguments.has(audience)
          let clock: any AuthClock =
            options.arguments.number(now).map {
              FixedWallClock(wallTime: Date(timeIntervalSince1970: $0))
            } ?? SystemAuthClock()
          let validator = JWTValidator(
            allowedAlgorithms: options.allowedAlgorithms, policy: policy, clock: clock)
          let jwt = try await validator.validate(
            try options.readToken(), resolver: try options.resolver())
          let output: JSONValue = ["header": jwt.header, "claims": jwt.claims]
          Console.out(output.jsonText + "\n")
          return 0
        })
    ])

  static let verifyExitCodes: [ExitCode] = [
    ExitCode(status: 0, meaning: "verified"),
    ExitCode(
      status: 1, meaning: "rejected (one line on stderr: 'error: <reason>: <message>')"),
    ExitCode(status: 2, meaning: "bad usage"),
  ]
}

/// The options of `jws verify` / `jwt verify`, checked together.
private struct JOSEOptions {
  let arguments: ParsedArguments
  let invocation: Invocation
  let isJWT: Bool

  init(_ invocation: Invocation, isJWT: Bool) throws(UsageError) {
    self.invocation = invocation
    self.arguments = invocation.arguments
    self.isJWT = isJWT
    let sources = [
      JOSECommands.jwk, JOSECommands.jwks, JOSECommands.jwksURL, JOSECommands.hsSecretEnv,
    ].filter(arguments.has)
    guard sources.count == 1 else {
      throw UsageError(
        "give exactly one of "
          + (isJWT ? "--jwk, --jwks, --jwks-url or --hs-secret-env" : "--jwk or --jwks"))
    }
    if let name = arguments.value(JOSECommands.hsSecretEnv) {
      _ = try invocation.requiredEnvironment(name, for: "the HS256 secret")
    }
  }

  var allowedAlgorithms: Set<JWSAlgorithm> {
    let chosen = Set(arguments.all(JOSECommands.algorithm).compactMap(JWSAlgorithm.init(rawValue:)))
    if !chosen.isEmpty { return chosen }
    if arguments.has(JOSECommands.hsSecretEnv) { return [.hs256] }
    return Set(JWSAlgorithm.allCases)
  }

  func readToken() throws(UsageError) -> String {
    try Console.token(arguments.positionals.first ?? "")
  }

  func resolver() throws -> any JWTKeyResolver {
    if let path = arguments.value(JOSECommands.jwk) {
      return StaticKeyResolver(try JWK(parsing: try Self.readFile(path)))
    }
    if let path = arguments.value(JOSECommands.jwks) {
      return StaticKeyResolver(try JWKSet(parsing: try Self.readFile(path)))
    }
    if var url = arguments.url(JOSECommands.jwksURL) {
      // Only the flag: an exported SOCIALLOGIN_EMULATOR_HOST alone never swaps the keys that
      // decide which tokens are trusted.
      if invocation.arguments.value(GlobalOptions.emulator) != nil,
        let emulator = try invocation.emulatorHost()
      {
        url = emulator.map(url)
      }
      return JWKSCache(url: url, transport: URLSessionTransport())
    }
    let name = arguments.value(JOSECommands.hsSecretEnv) ?? ""
    let secret = try invocation.requiredEnvironment(name, for: "the HS256 secret")
    return HMACSecretResolver(secret: Secret(secret), algorithm: .hs256)
  }

  private static func readFile(_ path: String) throws -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw AuthError(.configuration, "Cannot read the file '\(path)'.")
    }
    return data
  }
}

/// A clock whose wall time is fixed (`--now`); sleeping uses the continuous clock.
private struct FixedWallClock: AuthClock {
  let wallTime: Date
  var now: ContinuousClock.Instant { ContinuousClock.now }
  var minimumResolution: Duration { ContinuousClock().minimumResolution }
  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
  }
}
