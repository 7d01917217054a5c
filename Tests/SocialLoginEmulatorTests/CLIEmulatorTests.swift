import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The built `sociallogin` binary against the provider emulator, as a user runs it:
/// `login <provider> --emulator HOST:PORT` with no other flag (the emulator's default app), a
/// test playing the browser with a plain GET of the sign-in URL, then `status`, `token`
/// (refreshing through the provider), `verify` and `logout --revoke`, all from the profile the
/// CLI remembered.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIEmulatorTests {
  typealias Result = CLIProcess.Result
  typealias Running = CLIProcess.Running

  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-emulator")
  }

  func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
    try await CLIProcess.run(arguments, home: home, environment: environment)
  }

  /// Runs `login` and plays the browser: GET the printed URL (the emulator auto-approves and
  /// redirects to the CLI's loopback callback).
  func login(_ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
    let login = try await CLIProcess.login(arguments, home: home, environment: environment)
    #expect(login.pageStatus == 200, "callback page")
    return login.result
  }

  @Test(arguments: [
    ("twitter", [String](), true), ("twitter", ["--oauth1"], false), ("line", [], true),
    ("facebook", [], false),
  ])
  func loginThenTokenStatusVerifyAndLogoutNeedOnlyTheEmulator(
    provider: String, flags: [String], refreshes: Bool
  ) async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run(accessTokenTTL: 120) { emulator in
      let host = emulator.host.description
      let login = try await login([provider, "--emulator", host] + flags)
      #expect(login.status == 0, "\(login.stderr)")
      let identity = try JSONValue(parsing: Array(login.stdout.utf8))
      #expect(identity["provider"]?.stringValue == ProviderID(rawValue: provider).rawValue)
      let subject = try #require(identity["subject"]?.stringValue)

      // Everything else needs only the selection: the profile remembered the rest, and the
      // emulator host too (no --emulator from here on).
      let status = try await run(["status", "--json"])
      let rows = try #require(try JSONValue(parsing: Array(status.stdout.utf8)).arrayValue)
      #expect(rows.count == 1)
      #expect(rows.first?["subject"]?.stringValue == subject)
      #expect(rows.first?["profile"] == true)

      let token = try await run(["token", "--provider", provider])
      #expect(token.status == 0, "\(token.stderr)")
      let accessToken = token.stdout.trimmingCharacters(in: .newlines)
      #expect(!accessToken.isEmpty && token.stdout == accessToken + "\n")

      if refreshes {
        emulator.clearRequests()
        let fresh = try await run(["token", "--provider", provider, "--force-refresh"])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout != token.stdout, "a refreshed token")
        let name = ProviderID(rawValue: provider)
        #expect(
          emulator.requests(to: name, endpoint: "token", grantType: "refresh_token").count == 1,
          "\(emulator.requests.map(\.endpoint))")
      }

      if !flags.contains("--oauth1") {
        let current = try await run(["token", "--provider", provider])
        let verified = try await run(
          [
            "verify", provider, "--emulator", host, "--access-token",
            current.stdout.trimmingCharacters(in: .newlines),
          ] + (provider == "oidc" ? ["--issuer", emulator.oidcIssuer.absoluteString] : []))
        #expect(verified.status == 0, "\(verified.stderr)")
        let document = try JSONValue(parsing: Array(verified.stdout.utf8))
        #expect(document["subject"]?.stringValue == subject)
        #expect(document["audience"]?["proven"] != nil)
      }

      let logout = try await run(["logout", "--provider", provider, "--revoke"])
      #expect(logout.status == 0, "\(logout.stderr)")
      #expect(logout.stdout.isEmpty)
      let after = try await run(["status", "--json"])
      #expect(try JSONValue(parsing: Array(after.stdout.utf8)) == [])
    }
  }

  @Test func aSecretFromTheEnvironmentNeverReachesADiskOrTheOutput() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let environment = ["MY_X_SECRET": EmulatorApps.twitterClientSecret]
      let login = try await login(
        [
          "twitter", "--emulator", emulator.host.description, "--client-id",
          EmulatorApps.twitterClientID, "--client-secret-env", "MY_X_SECRET",
        ], environment: environment)
      #expect(login.status == 0, "\(login.stderr)")
      let profiles = try String(
        contentsOf: home.appendingPathComponent("sociallogin/sessions/cli.profiles"),
        encoding: .utf8)
      #expect(profiles.contains("MY_X_SECRET"), "the variable's name is remembered")
      let token = try await run(["token", "--force-refresh"], environment: environment)
      let logout = try await run(["logout", "--revoke"], environment: environment)
      #expect(logout.status == 0, "\(logout.stderr)")
      let secret = EmulatorApps.twitterClientSecret
      for output in [login.stdout, login.stderr, token.stdout, token.stderr, logout.stderr] {
        #expect(!output.contains(secret))
      }
      let walker = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
      while let url = walker?.nextObject() as? URL {
        let data = FileManager.default.contents(atPath: url.path) ?? Data()
        #expect(data.range(of: Data(secret.utf8)) == nil, "\(url.path) holds the secret")
      }
    }
  }

  @Test func verifyRejectionsNameTheProvidersOwnErrorCode() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      for (provider, said) in [
        ("facebook", "code 190"), ("twitter", "HTTP 401"), ("line", "error invalid_request"),
      ] {
        let result = try await run(
          ["verify", provider, "--emulator", emulator.host.description, "--access-token", "bogus"]
        )
        #expect(result.status == 1, "\(provider): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: invalid_token: "), "\(result.stderr)")
        #expect(result.stderr.contains(said), "\(provider): \(result.stderr)")
        #expect(result.stderr.filter(\.isNewline).count == 1)
      }
    }
  }

  @Test func theEmulatorVariableWorksLikeTheFlagAndLoginFlagsOverrideTheRememberedProfile()
    async throws
  {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let environment = ["SOCIALLOGIN_EMULATOR_HOST": emulator.host.description]
      let first = try await login(["twitter", "--scope", "users.read"], environment: environment)
      #expect(first.status == 0, "\(first.stderr)")
      let file = home.appendingPathComponent("sociallogin/sessions/cli.profiles")
      let remembered = try JSONValue(parsing: Array(try Data(contentsOf: file)))
      let profile = try #require(remembered["profiles"]?.objectValue?.values.first)
      #expect(profile["emulator"]?.stringValue == emulator.host.description)
      #expect(profile["scopes"] == ["users.read"])
      #expect(profile["usesEmulatorApp"] == true)

      // Signing in again starts from what was remembered; a flag given again wins.
      let second = try await login(
        ["twitter", "--scope", "users.read", "--scope", "offline.access"],
        environment: environment)
      #expect(second.status == 0, "\(second.stderr)")
      let authorize = emulator.requests(to: "twitter", endpoint: "authorize")
      #expect(authorize.last?.query["scope"] == "users.read offline.access")
      let updated = try JSONValue(parsing: Array(try Data(contentsOf: file)))
      #expect(updated["profiles"]?.objectValue?.count == 1, "one account, one profile")
      #expect(
        updated["profiles"]?.objectValue?.values.first?["scopes"]
          == ["users.read", "offline.access"])

      // No flag at all: the remembered scopes are used.
      let third = try await login(["twitter"], environment: environment)
      #expect(third.status == 0, "\(third.stderr)")
      let again = emulator.requests(to: "twitter", endpoint: "authorize")
      #expect(again.last?.query["scope"] == "users.read offline.access")
    }
  }

  /// `$BROWSER` is the browser command, as for `git` and `gh`: split on spaces, the sign-in URL
  /// appended as its last argument, used even without a desktop (the harness unsets
  /// `DISPLAY`). Here it is a script that writes its arguments to a file; the test then plays
  /// the browser with a GET of the URL that arrived.
  @Test func loginOpensTheSignInURLWithTheBrowserVariable() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let script = home.appendingPathComponent("browser.sh")
    let opened = home.appendingPathComponent("opened.txt")
    let partial = home.appendingPathComponent("opened.partial")
    try """
    #!/bin/sh
    printf '%s\\n' "$@" > '\(partial.path)' && mv '\(partial.path)' '\(opened.path)'

    """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    try await ProviderEmulator.run { emulator in
      let cli = try Running(
        ["login", "twitter", "--emulator", emulator.host.description, "--timeout", "60"],
        home: home, environment: ["BROWSER": "\(script.path) --new-window"])
      defer { if cli.process.isRunning { cli.process.interrupt() } }
      var arguments: [String] = []
      let deadline = ContinuousClock.now + .seconds(30)
      while arguments.isEmpty, ContinuousClock.now < deadline, cli.process.isRunning {
        if let text = try? String(contentsOf: opened, encoding: .utf8) {
          arguments = text.split(separator: "\n").map(String.init)
        } else {
          try await Task.sleep(for: .milliseconds(20))
        }
      }
      try #require(arguments.count == 2, "the browser got \(arguments); \(cli.stderr)")
      #expect(arguments[0] == "--new-window")
      let url = try #require(URL(string: arguments[1]))
      #expect(url.path.contains("/oauth2/authorize"), "\(url)")
      var request = URLRequest(url: url)
      request.timeoutInterval = 60
      let (_, response) = try await URLSession.shared.data(for: request)
      #expect((response as? HTTPURLResponse)?.statusCode == 200, "callback page")
      let login = try await cli.finish()
      #expect(login.status == 0, "\(login.stderr)")
      #expect(login.stderr.contains("Open this URL to sign in: \(arguments[1])\n"))
    }
  }

  /// Issue 20, item 7: `verify --id-token` without `--nonce` accepts a token's nonce only when
  /// `sociallogin nonce` issued it (and uses it up); `--any-nonce` is the explicit opt-out.
  @Test func anIDTokenCarryingANonceNeedsItOrAnyNonce() async throws {
    try await ProviderEmulator.run { emulator in
      let host = emulator.host.description
      let token = try emulator.lineIDToken(nonce: "from-the-app", algorithm: .hs256)
      let secret = ["LINE_SECRET": EmulatorApps.lineChannelSecret]
      let base = [
        "verify", "line", "--emulator", host, "--client-id", EmulatorApps.lineChannelID,
        "--client-secret-env", "LINE_SECRET", "--id-token", token,
      ]
      let refused = try await run(base, environment: secret)
      #expect(refused.status == 1, "\(refused.stderr)")
      #expect(refused.stderr.contains("--any-nonce") || refused.stderr.contains("nonce"))
      let optedOut = try await run(base + ["--any-nonce"], environment: secret)
      #expect(optedOut.status == 0, "\(optedOut.stderr)")
      let checked = try await run(base + ["--nonce", "from-the-app"], environment: secret)
      #expect(checked.status == 0, "\(checked.stderr)")
      let both = try await run(base + ["--nonce", "x", "--any-nonce"], environment: secret)
      #expect(both.status == 2)

      // `sociallogin nonce` keeps a nonce in the store; verify finds it there and uses it up.
      let issued = try await run(["nonce"])
      #expect(issued.status == 0, "\(issued.stderr)")
      let nonce = issued.stdout.trimmingCharacters(in: .newlines)
      #expect(nonce.count >= 43)
      let appToken = try emulator.lineIDToken(nonce: nonce, algorithm: .hs256)
      var fresh = base
      fresh[fresh.count - 1] = appToken
      let first = try await run(fresh, environment: secret)
      #expect(first.status == 0, "\(first.stderr)")
      let replay = try await run(fresh, environment: secret)
      #expect(replay.status == 1, "a nonce is used once")
      #expect(replay.stderr.contains("nonce"), "\(replay.stderr)")
    }
  }
}
