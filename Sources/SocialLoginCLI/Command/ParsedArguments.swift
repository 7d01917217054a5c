import Foundation
import SocialLogin

/// The options and arguments of one command line, as the parser found them. Values were
/// checked against their option's ``ValueKind`` while parsing, so the typed accessors here
/// only convert. Options are looked up by the ``Option`` a command declared (a constant used
/// both in the declaration and in the look-up), never by a spelled-out name.
struct ParsedArguments: Sendable {
  /// Every value of every option given, by option name, in command-line order.
  var values: [String: [String]] = [:]
  /// The boolean options given.
  var flags: Set<String> = []
  /// The positional arguments, in order.
  var positionals: [String] = []

  /// Whether the boolean `option` was given.
  func flag(_ option: Option) -> Bool { flags.contains(option.name) }

  /// The value of the single-valued `option`, if given.
  func value(_ option: Option) -> String? { values[option.name]?.last }

  /// Every value of the repeatable `option`.
  func all(_ option: Option) -> [String] { values[option.name] ?? [] }

  /// Whether `option` was given at all (flag or value).
  func has(_ option: Option) -> Bool {
    flags.contains(option.name) || values[option.name] != nil
  }

  /// The value of `option` as an http(s) URL.
  func url(_ option: Option) -> URL? { value(option).flatMap(ValueKind.httpURL) }

  /// The value of `option` as whole seconds.
  func seconds(_ option: Option) -> Int? { value(option).flatMap { Int($0) } }

  /// The value of `option` as a number.
  func number(_ option: Option) -> Double? { value(option).flatMap { Double($0) } }

  /// The value of `option` as a port.
  func port(_ option: Option) -> UInt16? { value(option).flatMap { UInt16($0) } }

  /// The repeatable `NAME=URL` `option` as pairs, in order.
  func namedURLs(_ option: Option) -> [(name: String, url: URL)] {
    all(option).compactMap { text in
      guard let (key, value) = ValueKind.namedURL(text), let url = ValueKind.httpURL(value)
      else { return nil }
      return (key, url)
    }
  }
}

/// What one run of the CLI was asked to do, handed to a command's ``Command/run``.
struct Invocation: Sendable {
  /// The command words after `sociallogin` (`["jwt", "verify"]`).
  var path: [String]
  /// What the parser found.
  var arguments: ParsedArguments
  /// The process environment (tests pass their own).
  var environment: [String: String]

  /// `sociallogin jwt verify`, for messages.
  var commandName: String { (["sociallogin"] + path).joined(separator: " ") }

  /// The emulator to point every provider at: `--emulator`, else `SOCIALLOGIN_EMULATOR_HOST`.
  ///
  /// - Throws: ``UsageError`` when the flag or the environment variable is malformed or names
  ///   a host that is not a loopback host.
  func emulatorHost() throws(UsageError) -> EmulatorHost? {
    if let text = arguments.value(GlobalOptions.emulator) {
      do {
        return try EmulatorHost(parsing: text)
      } catch {
        throw UsageError(
          "--emulator must be HOST:PORT with a loopback host (127.0.0.0/8, ::1, localhost), "
            + "for example 127.0.0.1:9199")
      }
    }
    do {
      return try EmulatorHost.fromEnvironment(environment)
    } catch {
      throw UsageError(
        "\(EmulatorHost.environmentVariable) must be HOST:PORT with a loopback host "
          + "(127.0.0.0/8, ::1, localhost), for example 127.0.0.1:9199")
    }
  }

  /// The value of the environment variable `name`, which must be set and not empty.
  func requiredEnvironment(_ name: String, for purpose: String) throws(UsageError) -> String {
    guard let value = environment[name], !value.isEmpty else {
      throw UsageError("the environment variable '\(name)' (\(purpose)) is not set")
    }
    return value
  }
}

/// Options every command accepts, wherever they appear on the command line.
enum GlobalOptions {
  /// `--emulator HOST:PORT`: point every provider at the SocialLogin emulator.
  static let emulator = Option.value(
    "--emulator", "HOST:PORT", .hostPort,
    help: """
      point every provider at the SocialLogin emulator (default: \
      $\(EmulatorHost.environmentVariable)); commands that reach no provider ignore it
      """)

  /// The options the parser adds to every command.
  static let all: [Option] = [emulator]
}
