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

  /// `text` on one line (newlines become spaces), for one-line error reports.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
