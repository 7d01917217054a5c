/// Generates the `--help` text of a command from its declaration.
enum CommandHelp {
  static let width = 100

  /// The full help of the command at `path`.
  static func text(for command: Command, path: [String]) -> String {
    let invocation = (["sociallogin"] + path).joined(separator: " ")
    var sections: [String] = []
    sections.append(usage(for: command, invocation: invocation))
    sections.append(command.summary)
    if !command.discussion.isEmpty {
      sections.append(reflow(command.discussion, width: width).joined(separator: "\n"))
    }
    if !command.subcommands.isEmpty {
      sections.append(
        "COMMANDS:\n"
          + table(command.subcommands.map { ($0.name, $0.summary) })
          + "\n\nSee '\(invocation) <command> --help' for a command's options.")
    }
    if !command.arguments.isEmpty {
      sections.append("ARGUMENTS:\n" + table(command.arguments.map { ($0.name, $0.help) }))
    }
    let options = CommandParser.options(of: command)
    var rows = options.map { option -> (String, String) in
      var name = option.name
      if option.arity != .flag { name += " \(option.valueName)" }
      let help = option.arity == .repeated ? option.help + " (repeatable)" : option.help
      return (name, help)
    }
    rows.append(("-h, --help", "show this help"))
    sections.append("OPTIONS:\n" + table(rows))
    if command.run != nil {
      sections.append(
        "EXIT STATUS:\n" + table(command.exitCodes.map { (String($0.status), $0.meaning) }))
    }
    return sections.joined(separator: "\n\n") + "\n"
  }

  /// The one line that points at the help after a usage error.
  static func seeHelp(path: [String]) -> String {
    "See '\((["sociallogin"] + path).joined(separator: " ")) --help'."
  }

  private static func usage(for command: Command, invocation: String) -> String {
    if let synopsis = command.synopsis {
      // Lines that start with spaces continue the line above, under its first option.
      let indent = String(repeating: " ", count: invocation.count + 3)
      return "USAGE:\n"
        + synopsis.map { line in
          line.hasPrefix(" ")
            ? indent + line.drop { $0 == " " } : "  \(invocation) \(line)"
        }.joined(separator: "\n")
    }
    var parts: [String] = []
    if !command.subcommands.isEmpty { parts.append("<command>") }
    for option in command.options {
      var text = option.name
      if option.arity != .flag { text += " \(option.valueName)" }
      text = "[\(text)]"
      if option.arity == .repeated { text += "..." }
      parts.append(text)
    }
    for argument in command.arguments {
      parts.append(argument.isOptional ? "[\(argument.name)]" : argument.name)
    }
    if command.subcommands.isEmpty, parts.isEmpty { parts.append("[options]") }
    return "USAGE:\n" + wrap(parts, first: "  \(invocation) ")
  }

  /// Words joined into lines of at most ``width`` columns, continuation lines indented under
  /// the first word.
  private static func wrap(_ words: [String], first prefix: String) -> String {
    let indent = String(repeating: " ", count: prefix.count)
    var lines: [String] = []
    var line = prefix
    for word in words {
      if line.count + word.count + 1 > width, line != prefix, line != indent {
        lines.append(line)
        line = indent
      }
      if line != prefix, line != indent { line += " " }
      line += word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }

  /// Two columns; long left cells put their help on the next line; help text is wrapped.
  private static func table(_ rows: [(String, String)]) -> String {
    let column = min(max(rows.map(\.0.count).max() ?? 0, 4) + 4, 30)
    var lines: [String] = []
    for (left, right) in rows {
      let helpLines = reflow(right, width: width - column)
      var first = "  " + left
      if first.count + 2 > column {
        lines.append(first)
        first = ""
      }
      for (index, text) in helpLines.enumerated() {
        let start = index == 0 && !first.isEmpty ? first : ""
        lines.append(start.padding(toColumn: column) + text)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `text` split into lines of at most `width` columns (its own newlines are kept).
  private static func reflow(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ") {
        if !line.isEmpty, line.count + word.count + 1 > width {
          lines.append(line)
          line = ""
        }
        line += line.isEmpty ? String(word) : " " + word
      }
      lines.append(line)
    }
    return lines
  }
}

extension String {
  fileprivate func padding(toColumn column: Int) -> String {
    count >= column ? self : self + String(repeating: " ", count: column - count)
  }
}
