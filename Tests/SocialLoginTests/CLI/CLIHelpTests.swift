import CLITestProcess
import Foundation
import Testing

/// Every command and subcommand answers `--help` (and `-h`, and `sociallogin help ...`) with
/// exit 0 and its usage on stdout, stderr empty. Commands are discovered from the help itself
/// (each group's COMMANDS section), so a command added later is covered without editing this.
@Suite(
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIHelpTests {
  /// The commands the CLI must have at least.
  static let required: Set<String> = [
    "", "demo", "emulator", "login", "login oidc", "login facebook", "login twitter", "login line",
    "token",
    "status", "logout", "verify", "verify facebook", "verify twitter", "verify line",
    "verify oidc", "jwt", "jwt verify", "jws", "jws verify",
  ]

  /// The names in the COMMANDS section of a help text.
  static func subcommands(in help: String) -> [String] {
    guard let start = help.range(of: "\nCOMMANDS:\n") else { return [] }
    var names: [String] = []
    for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("  "), let name = line.split(separator: " ").first else { break }
      names.append(String(name))
    }
    return names
  }

  @Test func everyCommandAndSubcommandAnswersHelpWithExitZeroOnStdout() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    var pending: [[String]] = [[]]
    var seen: Set<String> = []
    while let path = pending.popLast() {
      let name = path.joined(separator: " ")
      let result = try await cli.run(path + ["--help"])
      #expect(result.status == 0, "\(name) --help: \(result.stderr)")
      #expect(result.stderr.isEmpty, "\(name) --help wrote to stderr: \(result.stderr)")
      let invocation = (["sociallogin"] + path).joined(separator: " ")
      #expect(result.stdout.hasPrefix("USAGE:\n  \(invocation)"), "\(name): \(result.stdout)")
      #expect(result.stdout.contains("\nOPTIONS:\n"), "\(name)")
      #expect(result.stdout.contains("-h, --help"), "\(name)")
      let children = Self.subcommands(in: result.stdout)
      if children.isEmpty {
        #expect(result.stdout.contains("\nEXIT STATUS:\n"), "\(name) documents no exit codes")
      }
      seen.insert(name)
      pending += children.map { path + [$0] }
    }
    let missing = Self.required.subtracting(seen)
    #expect(missing.isEmpty, "commands without help: \(missing.sorted())")
  }

  @Test func dashHAndTheHelpCommandShowTheSameText() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    for path in [["jwt", "verify"], ["login", "twitter"], ["token"], []] {
      let long = try await cli.run(path + ["--help"])
      let short = try await cli.run(path + ["-h"])
      let word = try await cli.run(["help"] + path)
      #expect(short.status == 0 && word.status == 0)
      #expect(short.stdout == long.stdout, "\(path)")
      #expect(word.stdout == long.stdout, "\(path)")
    }
  }

  @Test func helpWinsOverOtherOptionsAndEarlierMistakes() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let reference = try await cli.run(["status", "--help"])
    for arguments in [
      ["status", "--bogus", "--help"], ["status", "--json", "-h"],
      ["--emulator", "127.0.0.1:9", "status", "--help"],
    ] {
      let result = try await cli.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stdout == reference.stdout, "\(arguments)")
    }
    // After `--`, `--help` is an argument like any other.
    let literal = try await cli.run(["jws", "verify", "--jwk", "k.jwk", "--", "--help"])
    #expect(literal.status == 1, "\(literal.stderr)")
  }

  @Test(arguments: [
    ("facebook", ["dialog", "access_token", "debug_token", "me", "jwks"]),
    (
      "twitter",
      [
        "authorize", "token", "revoke", "users_me", "request_token", "access_token",
        "verify_credentials", "invalidate_token",
      ]
    ),
    ("line", ["authorize", "token", "verify", "profile", "revoke", "jwks"]),
  ])
  func loginHelpListsTheProvidersEndpointNames(provider: String, names: [String]) async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let result = try await cli.run(["login", provider, "--help"])
    #expect(result.status == 0)
    let listed = result.stdout.components(separatedBy: "Endpoint names")
      .dropFirst().joined()
    for name in names {
      #expect(listed.contains(name), "\(provider) --help does not list \(name)")
    }
  }

  /// Issue 33: `emulator` and `demo` run their own emulator, so `--emulator` is neither
  /// listed in their help nor accepted; commands that talk to providers keep it.
  @Test func commandsThatRunTheirOwnEmulatorDoNotOfferEmulator() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    for command in ["emulator", "demo"] {
      let help = try await cli.run([command, "--help"])
      #expect(help.status == 0)
      #expect(!help.stdout.contains("--emulator"), "\(command) --help: \(help.stdout)")
      let refused = try await cli.run([command, "--emulator", "127.0.0.1:9"])
      #expect(refused.status == 2, "\(command): \(refused.stderr)")
      #expect(refused.stderr.contains("unknown option '--emulator'"), "\(refused.stderr)")
    }
    let login = try await cli.run(["login", "facebook", "--help"])
    #expect(login.stdout.contains("--emulator HOST:PORT"))
    let emulator = try await cli.run(["emulator", "--help"])
    #expect(emulator.stdout.contains("refresh leeway (30 s)"), "\(emulator.stdout)")
  }

  @Test func versionPrintsTheSDKVersionOnStdout() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let result = try await cli.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("sociallogin "))
    #expect(result.stderr.isEmpty)
  }
}
