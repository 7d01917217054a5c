import Foundation

/// The CLI's two outputs: stdout carries only the result (JSON, a token, a table, help that
/// was asked for); everything for people (prompts, progress, errors) goes to stderr.
enum Console {
  /// Writes the result to stdout.
  static func out(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Writes raw result bytes to stdout.
  static func out(_ bytes: some Sequence<UInt8>) {
    FileHandle.standardOutput.write(Data(bytes))
  }

  /// Writes a message for people to stderr.
  static func error(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// A token argument: `text` itself, or all of standard input (trimmed) for `-`.
  ///
  /// - Throws: ``UsageError`` when `-` was given and standard input held no token.
  static func token(_ text: String) throws(UsageError) -> String {
    guard text == "-" else { return text }
    let data = FileHandle.standardInput.readDataToEndOfFile()
    let token = String(decoding: data, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty else { throw UsageError("standard input held no token") }
    return token
  }

  /// `text` on one line (newlines become spaces), for one-line error reports.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

/// Writes `text` to stderr: the name the emulator's `demo` and `emulator` commands use.
func writeError(_ text: String) {
  Console.error(text)
}
