/// One command of the `sociallogin` CLI, described as data: its name, help text, options,
/// arguments, subcommands, exit codes and the function that runs it.
///
/// Every command is declared this way and parsed by the one ``CommandParser``, so every command
/// and subcommand gets the same rules (`--flag VALUE`, `--flag=VALUE`, repeatable options,
/// `--` ends options), the same usage errors (exit 2, one line on stderr) and a generated
/// `--help`.
struct Command: Sendable {
  /// What a command does when it runs: returns the exit status, or throws ``UsageError``
  /// (exit 2), ``CommandExit``, an `AuthError` (exit 1) or `CancellationError` (exit 130).
  typealias Run = @Sendable (Invocation) async throws -> Int32

  /// The word that selects this command (`verify`, `login`).
  var name: String
  /// One line for the parent's command list and the top of the help.
  var summary: String
  /// Paragraphs shown after the usage lines.
  var discussion: String
  /// Usage lines (without `sociallogin <path>`) when the generated synopsis is not clear
  /// enough, for example for mutually exclusive options.
  var synopsis: [String]?
  /// The options this command accepts (global options are added by the parser).
  var options: [Option]
  /// The positional arguments, in order.
  var arguments: [Argument]
  /// Subcommands; a command with subcommands and no ``run`` is a group.
  var subcommands: [Command]
  /// The exit statuses this command documents in its help.
  var exitCodes: [ExitCode]
  /// Whether Ctrl-C (SIGINT) and SIGTERM cancel the running command (exit 130). Commands that
  /// handle signals themselves (a foreground server) set it to `false`.
  var cancelsOnInterrupt: Bool
  /// The command's work; `nil` for a group.
  var run: Run?
  /// Whether the parser adds ``GlobalOptions`` to this command's options (and help). A
  /// command that starts its own emulator (`emulator`, `demo`) has no use for `--emulator`,
  /// and listing it would suggest it points the command somewhere.
  var acceptsGlobalOptions: Bool

  init(
    name: String,
    summary: String,
    discussion: String = "",
    synopsis: [String]? = nil,
    options: [Option] = [],
    arguments: [Argument] = [],
    subcommands: [Command] = [],
    exitCodes: [ExitCode] = ExitCode.standard,
    cancelsOnInterrupt: Bool = true,
    acceptsGlobalOptions: Bool = true,
    run: Run? = nil
  ) {
    self.name = name
    self.summary = summary
    self.discussion = discussion
    self.synopsis = synopsis
    self.options = options
    self.arguments = arguments
    self.subcommands = subcommands
    self.exitCodes = exitCodes
    self.cancelsOnInterrupt = cancelsOnInterrupt
    self.acceptsGlobalOptions = acceptsGlobalOptions
    self.run = run
  }

  /// The subcommand named `name`.
  func subcommand(_ name: String) -> Command? {
    subcommands.first { $0.name == name }
  }
}

/// One `--option` of a command.
struct Option: Sendable {
  /// How an option takes values.
  enum Arity: Sendable, Equatable {
    /// A boolean: present or not (`--no-browser`).
    case flag
    /// One value (`--issuer URL` or `--issuer=URL`), at most once.
    case single
    /// A value each time it appears (`--scope S --scope T`).
    case repeated
  }

  /// The long name with its dashes (`--issuer`).
  var name: String
  /// How it takes values.
  var arity: Arity
  /// The placeholder shown in help (`URL`); empty for flags.
  var valueName: String
  /// What values are accepted; checked while parsing, with a standard message.
  var kind: ValueKind
  /// One or more lines of help.
  var help: String

  /// A boolean option.
  static func flag(_ name: String, help: String) -> Option {
    Option(name: name, arity: .flag, valueName: "", kind: .text, help: help)
  }

  /// An option with one value.
  static func value(
    _ name: String, _ valueName: String, _ kind: ValueKind = .text, help: String
  ) -> Option {
    Option(name: name, arity: .single, valueName: valueName, kind: kind, help: help)
  }

  /// An option that may be given several times.
  static func repeated(
    _ name: String, _ valueName: String, _ kind: ValueKind = .text, help: String
  ) -> Option {
    Option(name: name, arity: .repeated, valueName: valueName, kind: kind, help: help)
  }
}

/// A positional argument.
struct Argument: Sendable {
  /// The placeholder (`TOKEN`).
  var name: String
  /// Help for it.
  var help: String
  /// Whether it may be left out.
  var isOptional: Bool = false
}

/// An exit status and what it means, for the help text.
struct ExitCode: Sendable {
  var status: Int32
  var meaning: String

  /// 0 success, 1 failure, 2 usage, 130 interrupted: what every command follows.
  static let standard: [ExitCode] = [
    ExitCode(status: 0, meaning: "success"),
    ExitCode(status: 1, meaning: "failure (the reason is on stderr)"),
    ExitCode(status: 2, meaning: "bad usage"),
    ExitCode(status: 130, meaning: "interrupted (Ctrl-C)"),
  ]
}

/// Thrown by a command for bad usage that the parser cannot see (a missing option that is
/// only required in some cases, an unset environment variable): exit 2, one line on stderr.
struct UsageError: Error, Sendable {
  var message: String
  init(_ message: String) { self.message = message }
}

/// Thrown by a command to end with a chosen status and a one-line message on stderr.
struct CommandExit: Error, Sendable {
  var status: Int32
  var message: String
}
