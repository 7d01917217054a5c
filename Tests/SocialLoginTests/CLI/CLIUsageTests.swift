import CLITestProcess
import Foundation
import Testing

/// Bad usage exits 2 with one line on stderr that names the mistake and points at the
/// command's help, and nothing on stdout — for every rule of the one parser.
@Suite(
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIUsageTests {
  /// Arguments, extra environment, and a piece the one-line message must contain.
  static let cases: [([String], [String: String], String)] = [
    (["frobnicate"], [:], "unknown command 'frobnicate'"),
    (["login", "myspace"], [:], "unknown command 'myspace'"),
    (["status", "--bogus"], [:], "unknown option '--bogus'"),
    (["status", "--json=yes"], [:], "--json takes no value"),
    (["token", "--provider"], [:], "--provider needs a value"),
    (["token", "--provider", "--subject", "s"], [:], "--provider needs a value"),
    (["token", "--provider", "x", "--provider=line"], [:], "--provider is given more than once"),
    (["token", "--min-ttl", "soon"], [:], "--min-ttl must be a non-negative number of seconds"),
    (["token", "extra"], [:], "unexpected argument 'extra'"),
    (["login", "oidc", "--issuer", "not a url"], [:], "--issuer must be an http(s) URL"),
    (["login", "oidc", "--client-id", "c"], [:], "--issuer is required"),
    (
      ["login", "oidc", "--issuer", "https://id.example", "--redirect-port", "0"], [:], "1...65535"
    ),
    (
      ["login", "oidc", "--issuer", "https://id.example", "--client-id", "c"],
      ["SOCIALLOGIN_EMULATOR_HOST": "nonsense"], "SOCIALLOGIN_EMULATOR_HOST must be HOST:PORT"
    ),
    (
      [
        "login", "oidc", "--issuer", "https://id.example", "--client-id", "c",
        "--client-secret-env", "CLI_TEST_UNSET_SECRET",
      ], [:], "'CLI_TEST_UNSET_SECRET'"
    ),
    (["login", "twitter", "--emulator", "nohost"], [:], "--emulator must be HOST:PORT"),
    (["login", "twitter", "--endpoint", "token"], [:], "--endpoint must be NAME=URL"),
    (
      ["login", "twitter", "--client-id", "c", "--endpoint", "graph=http://127.0.0.1:9/x"], [:],
      "unknown --endpoint name 'graph' (known: authorize, token, revoke, users_me)"
    ),
    (
      [
        "login", "twitter", "--oauth1", "--client-id", "c", "--endpoint",
        "token=http://127.0.0.1:9/x",
      ], [:], "unknown --endpoint name 'token' (known: request_token"
    ),
    (
      ["login", "line", "--client-id", "c", "--endpoint", "me=http://127.0.0.1:9/x"], [:],
      "unknown --endpoint name 'me'"
    ),
    (["login", "facebook", "--timeout", "0"], [:], "--timeout must be a positive number"),
    (["login", "twitter", "--no-browser"], [:], "--client-id is required"),
    (["verify", "line", "--access-token", "a", "--id-token", "b"], [:], "exactly one of"),
    (["verify", "line"], [:], "exactly one of"),
    (
      ["verify", "line", "--nonce", "n", "--access-token", "a"], [:], "--nonce goes with --id-token"
    ),
    (["verify", "twitter", "--id-token", "t"], [:], "unknown option '--id-token'"),
    (["verify", "twitter", "--oauth1-token", "t"], [:], "--oauth1-secret-env"),
    (["jwt", "verify", "--jwk", "k.jwk", "a", "b"], [:], "more than one TOKEN"),
    (["jwt", "verify", "--jwk", "k.jwk"], [:], "missing TOKEN"),
    (["jwt", "verify", "--alg", "none", "--jwk", "k", "t"], [:], "unknown --alg 'none'"),
    (["help", "nothing"], [:], "unknown command 'nothing'"),
    (["emulator", "--port", "seventy"], [:], "--port must be 0...65535"),
    (["emulator", "--user", "no spaces"], [:], "--user must be an id of 1 to 64 letters"),
    (["emulator", "--user"], [:], "--user needs a value"),
    (["emulator", "--bogus"], [:], "unknown option '--bogus'"),
    (["demo", "--bogus"], [:], "unknown option '--bogus'"),
    (["demo", "extra"], [:], "unexpected argument 'extra'"),
    // Issue 33: did you mean ...? for options, commands, provider names and choices.
    (["login", "facebook", "--no-brower"], [:], "'--no-brower' (did you mean '--no-browser'?)"),
    (["login", "fb"], [:], "unknown command 'fb': did you mean 'facebook'? (known: oidc,"),
    (["login", "x"], [:], "unknown command 'x': did you mean 'twitter'?"),
    (["login", "linr"], [:], "unknown command 'linr': did you mean 'line'?"),
    (["login", "Facebook"], [:], "did you mean 'facebook'?"),
    (["verify", "goog"], [:], "did you mean 'google'?"),
    (["stauts"], [:], "unknown command 'stauts': did you mean 'status'?"),
    (["status", "--jsno"], [:], "unknown option '--jsno' (did you mean '--json'?)"),
    (["jwt", "verify", "--alg", "RS265", "--jwk", "k", "t"], [:], "did you mean 'RS256'?"),
    (
      ["login", "facebook", "--client-secret", "hunter2"], [:],
      "--client-secret is not an option: a secret on the command line"
    ),
    (["login", "line", "--client-secret=hunter2"], [:], "--client-secret-env NAME"),
  ]

  /// Nothing close, nothing suggested, however long the word.
  @Test func noSuggestionWhenNothingIsCloseOrTheWordIsHuge() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let huge = "--" + String(repeating: "no-browser", count: 10_000)
    for arguments in [
      ["login", "myspace"], ["status", "--bogus"], ["login", "facebook", huge],
      ["login", String(repeating: "f", count: 100_000)],
    ] {
      let result = try await cli.run(arguments)
      #expect(result.status == 2)
      #expect(!result.stderr.contains("did you mean"), "\(result.stderr.prefix(200))")
    }
  }

  /// A secret given on the command line is never echoed back.
  @Test func aSecretOnTheCommandLineIsNotEchoed() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    for arguments in [
      ["login", "facebook", "--client-secret", "hunter2"],
      ["login", "facebook", "--client-secret=hunter2"],
    ] {
      let result = try await cli.run(arguments)
      #expect(result.status == 2)
      #expect(!result.stderr.contains("hunter2"), "\(result.stderr)")
      #expect(result.stderr.contains("--client-secret-env NAME"), "\(result.stderr)")
    }
  }

  @Test func usageErrorsExitTwoWithOneLineNamingTheMistake() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    for (arguments, environment, expected) in Self.cases {
      let result = try await cli.run(arguments, environment: environment)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderrIsOneLine, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("--help'."), "\(arguments) does not point at the help")
      #expect(result.stdout.isEmpty, "\(arguments) wrote to stdout")
    }
  }

  @Test func anUnknownCommandIsAUsageErrorEvenWhenHelpIsAskedFor() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    for (arguments, unknown, known) in [
      (["login", "myspace", "--help"], "myspace", "oidc, facebook, twitter, line"),
      (["login", "myspace", "-h"], "myspace", "oidc, facebook, twitter, line"),
      (["help", "login", "myspace"], "myspace", "oidc, facebook, twitter, line"),
      (["frobnicate", "--help"], "frobnicate", "demo, emulator, login"),
      (["jwt", "sign", "--jwk", "k", "-h"], "sign", "verify"),
      (["help", "nothing"], "nothing", "demo, emulator, login"),
    ] {
      let result = try await cli.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments) wrote to stdout: \(result.stdout)")
      #expect(result.stderrIsOneLine, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.contains("unknown command '\(unknown)'"), "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(known), "\(arguments) does not list the choices")
    }
  }

  @Test func aGroupWithoutItsCommandShowsItsHelpOnStderrAndExitsTwo() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    for path in [[], ["login"], ["verify"], ["jwt"]] {
      let result = try await cli.run(path)
      #expect(result.status == 2, "\(path)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.hasPrefix("USAGE:"), "\(path): \(result.stderr)")
      #expect(result.stderr.contains("COMMANDS:"))
    }
  }

  @Test func optionsTakeTheirValueInlineOrAsTheNextWord() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let directory = cli.home.appendingPathComponent("store").path
    // Both spellings reach the command (no usage error): an empty store is listed as empty.
    for arguments in [
      ["status", "--json", "--store", directory], ["status", "--json", "--store=\(directory)"],
      ["--emulator=127.0.0.1:9", "status", "--store", directory, "--json"],
    ] {
      let result = try await cli.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stdout == "[\n\n]\n" || result.stdout == "[]\n", "\(result.stdout)")
    }
    // A value that merely starts with one dash is a value.
    let negative = try await cli.run(["token", "--min-ttl", "-1"])
    #expect(negative.stderr.contains("--min-ttl must be a non-negative"))
  }
}
