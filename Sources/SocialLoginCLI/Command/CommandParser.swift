/// The one parser of the CLI: walks a command line through the ``Command`` tree.
///
/// Rules, the same for every command:
/// - Words select subcommands until a command without subcommands is reached; later words are
///   its positional arguments. `--` ends the options: everything after it is positional.
/// - `--name VALUE` and `--name=VALUE`; a value may not start with `--` unless given as
///   `--name=VALUE` (so `--client-id --no-browser` is caught as a missing value). A single `-`
///   is a positional argument (standard input).
/// - A single-valued option given twice, an unknown option, a missing or extra positional
///   argument, or a value of the wrong shape is a usage error.
/// - `-h`/`--help` anywhere before `--` shows the help of the deepest command reached, even
///   after a usage error; `sociallogin help <command>...` does the same. An unknown command
///   is the exception: it is a usage error with or without `--help` (there is no help for it).
/// - Global options (``GlobalOptions``) are accepted by every command, before or after its
///   name, but by those that opt out (``Command/acceptsGlobalOptions``: `emulator`, `demo`).
/// - An unknown command, option or choice names what was typed and, when a known word is
///   close, the one it most likely meant (``Suggestion``); a secret option given on the
///   command line (`--client-secret`) points at its `-env` form.
struct CommandParser {
  /// What a command line asks for.
  enum Outcome {
    /// Show the help of the command at `path`.
    case help(path: [String], command: Command)
    /// Run `command`.
    case run(path: [String], command: Command, arguments: ParsedArguments)
    /// A usage error at `path`.
    case usageError(path: [String], message: String)
    /// A group was named without one of its subcommands.
    case missingSubcommand(path: [String], command: Command)
  }

  let root: Command

  func parse(_ words: [String]) -> Outcome {
    var words = words[...]
    if words.first == "help" {
      return helpCommand(Array(words.dropFirst()))
    }
    var command = root
    var path: [String] = []
    var parsed = ParsedArguments()
    var endOfOptions = false
    while let word = words.popFirst() {
      if !endOfOptions, word == "--" {
        endOfOptions = true
        continue
      }
      if !endOfOptions, word == "-h" || word == "--help" {
        return .help(path: path, command: command)
      }
      do throws(UsageError) {
        if !endOfOptions, word.hasPrefix("-"), word != "-" {
          try take(option: word, from: &words, command: command, into: &parsed)
        } else if !command.subcommands.isEmpty, parsed.positionals.isEmpty {
          guard let next = command.subcommand(word) else {
            // Not even `--help` rescues an unknown command: there is no help to show for it.
            return .usageError(path: path, message: Self.unknownCommand(word, in: command))
          }
          command = next
          path.append(word)
        } else {
          guard parsed.positionals.count < command.arguments.count else {
            throw UsageError(
              command.arguments.count == 1
                ? "more than one \(command.arguments[0].name)"
                : "unexpected argument '\(word)'")
          }
          parsed.positionals.append(word)
        }
      } catch {
        // A request for help anywhere on the line wins over the mistake before it.
        if !endOfOptions, let help = words.firstIndex(where: { $0 == "--help" || $0 == "-h" }),
          !words[..<help].contains("--")
        {
          return .help(path: path, command: command)
        }
        return .usageError(path: path, message: error.message)
      }
    }
    guard command.run != nil else { return .missingSubcommand(path: path, command: command) }
    let required = command.arguments.filter { !$0.isOptional }
    if parsed.positionals.count < required.count {
      return .usageError(
        path: path, message: "missing \(required[parsed.positionals.count].name)")
    }
    return .run(path: path, command: command, arguments: parsed)
  }

  /// The message for `word`, which is none of `command`'s subcommands: it names the word and
  /// the valid choices.
  static func unknownCommand(_ word: String, in command: Command) -> String {
    let names = command.subcommands.map(\.name)
    let hint = Suggestion.didYouMean(word, among: names)
    return "unknown command '\(word)'\(hint) (known: \(names.joined(separator: ", ")))"
  }

  /// The message for the option `name`, which `command` does not accept: a secret given on
  /// the command line is pointed at its `-env` option (without echoing the value), a typo at
  /// the option it most likely meant.
  static func unknownOption(_ name: String, in command: Command) -> String {
    let names = options(of: command).map(\.name)
    if names.contains(name + "-env") {
      return "\(name) is not an option: a secret on the command line shows in the process "
        + "list and the shell history; put it in an environment variable and pass the "
        + "variable's name with \(name)-env NAME"
    }
    let meant = Suggestion.closest(to: name, among: names + ["--help"])
    return "unknown option '\(name)'" + (meant.map { " (did you mean '\($0)'?)" } ?? "")
  }

  /// The options `command` accepts, global ones included unless it opts out
  /// (``Command/acceptsGlobalOptions``).
  static func options(of command: Command) -> [Option] {
    guard command.acceptsGlobalOptions else { return command.options }
    return command.options
      + GlobalOptions.all.filter { global in
        !command.options.contains { $0.name == global.name }
      }
  }

  private func take(
    option word: String, from words: inout ArraySlice<String>, command: Command,
    into parsed: inout ParsedArguments
  ) throws(UsageError) {
    var name = word
    var inline: String?
    if let equals = word.firstIndex(of: "=") {
      name = String(word[..<equals])
      inline = String(word[word.index(after: equals)...])
    }
    guard let option = Self.options(of: command).first(where: { $0.name == name }) else {
      if command.run == nil, !command.subcommands.isEmpty {
        let known = command.subcommands.map(\.name).joined(separator: ", ")
        throw UsageError("unknown option '\(name)' (expected a command: \(known))")
      }
      throw UsageError(Self.unknownOption(name, in: command))
    }
    switch option.arity {
    case .flag:
      guard inline == nil else { throw UsageError("\(name) takes no value") }
      parsed.flags.insert(name)
    case .single, .repeated:
      let value: String
      if let inline {
        value = inline
      } else {
        guard let next = words.first, !next.hasPrefix("--") else {
          throw UsageError("\(name) needs a value")
        }
        words.removeFirst()
        value = next
      }
      if option.arity == .single, parsed.values[name] != nil {
        throw UsageError("\(name) is given more than once")
      }
      if let problem = option.kind.problem(with: value, option: name) {
        throw UsageError(problem)
      }
      parsed.values[name, default: []].append(value)
    }
  }

  /// `sociallogin help [command...]`.
  private func helpCommand(_ words: [String]) -> Outcome {
    var command = root
    var path: [String] = []
    for word in words {
      guard let next = command.subcommand(word) else {
        return .usageError(path: path, message: Self.unknownCommand(word, in: command))
      }
      command = next
      path.append(word)
    }
    return .help(path: path, command: command)
  }
}
