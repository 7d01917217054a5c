import CLITestProcess
import Foundation
import Testing

/// `verify` asks only for what the protocol needs: Facebook Limited Login ID tokens need the
/// app id alone, LINE access tokens and ES256 ID tokens the channel id alone. Without
/// `--client-secret-env` these go to the provider (here a closed port: exit 1, a network
/// failure) instead of stopping at a usage error; what needs the secret still asks for it.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIVerifyWithoutSecretTests {
  static let closed = "http://127.0.0.1:1"

  @Test func facebookIDTokensAndLINEAccessTokensNeedNoSecret() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let runs: [[String]] = [
      [
        "verify", "facebook", "--client-id", "1234567890", "--id-token", "a.b.c",
        "--endpoint", "jwks=\(Self.closed)/jwks",
      ],
      [
        "verify", "line", "--client-id", "1656000000", "--access-token", "line-at",
        "--endpoint", "verify=\(Self.closed)/verify",
      ],
    ]
    for arguments in runs {
      let result = try await cli.run(arguments)
      #expect(result.status == 1, "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("--client-secret-env"), "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
  }

  @Test func facebookAccessTokensStillNeedTheAppSecret() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let result = try await cli.run([
      "verify", "facebook", "--client-id", "1234567890", "--access-token", "fb-at",
      "--endpoint", "debug_token=\(Self.closed)/debug_token",
    ])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains("--client-secret-env"), "\(result.stderr)")
  }
}
