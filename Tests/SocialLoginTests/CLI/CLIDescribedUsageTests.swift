import CLITestProcess
import Foundation
import SocialLogin
import Testing

/// The described providers' commands: `login kakao|naver|yahoo-japan|github|microsoft`,
/// `login custom --provider-file PATH` and `verify` for them, refusing what they must before
/// anything is sent.
@Suite(
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIDescribedUsageTests {
  /// Writes `text` as a provider file in the harness's home.
  private func providerFile(_ cli: CLIHarness, _ text: String) throws -> String {
    let url = cli.home.appendingPathComponent("provider-\(UUID().uuidString).json")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// A valid description of a provider the SDK does not ship, as JSON text.
  private func acme(_ change: (inout ProviderDescription) -> Void = { _ in }) throws -> String {
    var description = ProviderDescription(
      id: "acme", displayName: "Acme",
      endpoints: [
        ProviderEndpoint(name: "authorize", production: "https://id.acme.example/authorize"),
        ProviderEndpoint(name: "token", production: "https://id.acme.example/token", method: .post),
        ProviderEndpoint(name: "me", production: "https://api.acme.example/me"),
      ],
      identity: IdentityRules(endpoint: "me", subject: "/id"))
    change(&description)
    return String(decoding: try JSONEncoder().encode(description), as: UTF8.self)
  }

  @Test func everyBuiltInDescriptionHasALoginAndAVerifyCommand() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let login = try await cli.run(["login", "--help"])
    let verify = try await cli.run(["verify", "--help"])
    for description in ProviderDescription.builtIn {
      #expect(login.stdout.contains("  \(description.id.rawValue) "), "\(description.id)")
      #expect(verify.stdout.contains("  \(description.id.rawValue) "), "\(description.id)")
    }
    let microsoft = try await cli.run(["login", "microsoft", "--help"])
    #expect(microsoft.stdout.contains("--tenant TENANT"))
    #expect(microsoft.stdout.contains("Endpoint names: authorize, token, keys, device."))
    let yahoo = try await cli.run(["login", "yahoo-japan", "--help"])
    #expect(yahoo.stdout.contains("$SOCIALLOGIN_YAHOO_JAPAN_CLIENT_SECRET"), "\(yahoo.stdout)")
  }

  @Test func badUsageOfDescribedProvidersExitsTwoBeforeAnythingIsSent() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let huge = try providerFile(cli, String(repeating: " ", count: 70_000))
    let notJSON = try providerFile(cli, "{not json")
    let missing = try providerFile(cli, #"{"id":"acme","displayName":"Acme"}"#)
    let builtIn = try providerFile(cli, try acme { $0.id = .kakao })
    let plainHTTP = try providerFile(
      cli,
      try acme {
        $0.endpoints[1] = ProviderEndpoint(
          name: "token", production: "http://id.acme.example/token", method: .post)
      })
    let dangling = try providerFile(cli, try acme { $0.identity.endpoint = "profile" })
    let badPointer = try providerFile(
      cli, try acme().replacingOccurrences(of: #""\/id""#, with: #""id~""#))
    let cases: [([String], String)] = [
      (["login", "custom"], "--provider-file PATH is required"),
      (["login", "custom", "--provider-file", "/nonexistent/p.json"], "cannot read"),
      (["login", "custom", "--provider-file", huge], "is over 65536 bytes"),
      (["login", "custom", "--provider-file", notJSON], "not valid: not JSON"),
      (["login", "custom", "--provider-file", missing], "missing 'endpoints'"),
      (["login", "custom", "--provider-file", builtIn], "the id 'kakao' of a built-in"),
      (["login", "custom", "--provider-file", plainHTTP], "'token' is not an https URL"),
      (["login", "custom", "--provider-file", dangling], "name the endpoint 'profile'"),
      (["login", "custom", "--provider-file", badPointer], "bad value at 'identity.subject'"),
      (
        [
          "login", "custom", "--provider-file", try providerFile(cli, try acme()), "--parameter",
          "tenant=x", "--client-id", "c",
        ],
        "Acme takes no parameters"
      ),
      (["login", "microsoft", "--client-id", "app"], "Microsoft needs --tenant VALUE"),
      (
        ["login", "microsoft", "--client-id", "app", "--tenant", "evil.example/x"],
        "may hold only letters"
      ),
      (["login", "kakao", "--client-id", "key,,other"], "--client-id has an empty key"),
      (
        ["login", "naver", "--client-id", "id", "--endpoint", "keys=http://127.0.0.1:9/x"],
        "unknown --endpoint name 'keys' (known: authorize, token, profile)"
      ),
      (["login", "naver", "--client-id", "id"], "NAVER needs the client secret"),
      (["verify", "naver", "--id-token", "t"], "unknown option '--id-token'"),
    ]
    for (arguments, expected) in cases {
      let result = try await cli.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments) wrote to stdout")
    }
  }
}
