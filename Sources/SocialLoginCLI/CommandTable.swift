import SocialLogin

/// Every command of `sociallogin`, in the order `--help` lists them.
///
/// Other parts of the CLI register here, once each: `demo` and `emulator`
/// (``EmulatorCommands``), and next `firebase sign-in` (a `firebase` group beside `verify`)
/// and `verify firebase` (a subcommand added to ``VerifyCommands/group``).
enum CommandTable {
  /// `--version`.
  static let version = Option.flag("--version", help: "print the SDK version")

  static let root: Command = Command(
    name: "sociallogin",
    summary: "Sign people in with Facebook, X, LINE and OpenID Connect providers, from a "
      + "terminal.",
    discussion: """
      stdout carries only results (JSON, a token, a table, help asked for); messages for \
      people go to stderr. Every command exits 0 on success, 1 on failure, 2 on bad usage \
      and 130 when interrupted.
      """,
    options: [version],
    subcommands: [
      EmulatorCommands.demo,
      EmulatorCommands.emulator,
      LoginCommands.group,
      TokenCommand.command,
      StatusCommand.command,
      LogoutCommand.command,
      EventsCommand.command,
      LinkCommands.link,
      LinkCommands.unlink,
      VerifyCommands.group,
      NonceCommand.command,
      StoreCommands.group,
      FirebaseCommands.group,
      JOSECommands.jwt,
      JOSECommands.jws,
    ],
    run: { invocation in
      guard invocation.arguments.flag(version) else {
        Console.error(CommandHelp.text(for: root, path: []))
        return 2
      }
      Console.out("sociallogin \(SDKVersion.current)\n")
      return 0
    })
}
