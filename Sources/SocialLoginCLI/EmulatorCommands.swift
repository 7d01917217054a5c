/// `sociallogin demo` and `sociallogin emulator` in the command table. Their work lives in
/// `DemoCommand` and `EmulatorCommand`; this file declares their options for the one parser,
/// which checks them and renders their help, and hands the checked values to the work.
enum EmulatorCommands {
  static let demo = Command(
    name: "demo",
    summary: "See the SDK sign in, refresh and recover against the built-in emulator.",
    discussion: """
      Starts the provider emulator in this process and shows, step by step, in plain text on \
      stdout: logins with X, Facebook and LINE, a session's state stream, 1,000 concurrent \
      token requests sharing one refresh, a stale copy's X refresh token rejected while the \
      session adopts the rotated one, a rate limit riding out in .degraded, a revoked refresh \
      token signing a session out, and Facebook -> Firebase: sign-in, state stream, ID-token \
      refresh, sign-out. No accounts and no network are needed. With --metrics it ends with \
      a line `# metrics` and, after it, the Prometheus text exposition of everything the demo \
      did (what a service serves on /metrics with a MetricsRecorder).
      """,
    options: [metrics],
    exitCodes: [
      ExitCode(status: 0, meaning: "every step behaved as documented"),
      ExitCode(status: 1, meaning: "a step did not (see the summary table)"),
      ExitCode(status: 2, meaning: "bad usage"),
      ExitCode(status: 130, meaning: "interrupted (Ctrl-C)"),
    ],
    // It runs its own emulator: `--emulator` would point it nowhere.
    acceptsGlobalOptions: false,
    run: { invocation in await DemoCommand.run(metrics: invocation.arguments.flag(metrics)) })

  /// `demo --metrics`.
  static let metrics = Option.flag(
    "--metrics",
    help: "end with `# metrics` and the Prometheus exposition of what the demo did")

  static let emulator = Command(
    name: "emulator",
    summary: "Run the provider emulator (Facebook, X, LINE, OpenID, Firebase) in the foreground.",
    discussion: """
      Serves every provider, Firebase Auth included, on 127.0.0.1 under its production host \
      name (http://127.0.0.1:PORT/api.x.com/2/oauth2/token, \
      .../identitytoolkit.googleapis.com/v1/... and so on); logins auto-approve as the \
      current user; controls (faults, users, transcript) are under /_emulator/. Prints the \
      base URL, the 'export SOCIALLOGIN_EMULATOR_HOST=...' and \
      'export FIREBASE_AUTH_EMULATOR_HOST=...' lines (the library and the CLI follow either; \
      loopback hosts only), the default apps and the Firebase API key and project id on \
      stdout, then runs until Ctrl-C or SIGTERM.
      """,
    options: [
      port, accessTokenTTL, user, providerFile,
    ],
    exitCodes: [
      ExitCode(status: 0, meaning: "stopped by SIGTERM"),
      ExitCode(status: 1, meaning: "the port cannot be bound"),
      ExitCode(status: 2, meaning: "bad usage"),
      ExitCode(status: 130, meaning: "stopped by Ctrl-C"),
    ],
    // It waits for the signals itself (SIGTERM is a clean stop, exit 0).
    cancelsOnInterrupt: false,
    // It is the emulator: `--emulator HOST:PORT` (another emulator) means nothing here.
    acceptsGlobalOptions: false,
    run: { invocation in
      let arguments = invocation.arguments
      return await EmulatorCommand.run(
        port: arguments.port(port) ?? 0,
        accessTokenTTL: arguments.number(accessTokenTTL),
        userIDs: arguments.all(user),
        described: try arguments.all(providerFile).map(DescribedLogin.readProviderFile(path:)))
    })

  /// `emulator --port N`.
  static let port = Option.value(
    "--port", "N", .listenPort, help: "listen on port N (default: any free port)")
  /// `emulator --access-token-ttl SECONDS`.
  static let accessTokenTTL = Option.value(
    "--access-token-ttl", "SECONDS", .positiveNumber,
    help: "every provider's access-token lifetime; at or below the SDK's default refresh "
      + "leeway (30 s) a client with the default policy refreshes on every token request")
  /// `emulator --provider-file PATH`, repeatable: a provider the SDK does not ship, served
  /// from its description (checked as `login custom` checks it) with a derived default app.
  static let providerFile = Option.repeated(
    "--provider-file", "PATH",
    help: "also serve the provider described in PATH (JSON, as for 'login custom'); its "
      + "default app is emulator-<id>-client / emulator-<id>-client-secret")
  /// `emulator --user ID`, repeatable.
  static let user = Option.repeated(
    "--user", "ID", .userID, help: "a user (the first is signed in); default: alice, bob, carol")
}
