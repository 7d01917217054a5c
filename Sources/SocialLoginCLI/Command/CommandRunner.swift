import Dispatch
import Foundation
import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parses a command line against the command table, runs the command and turns every outcome
/// into the CLI's exit statuses: 0 success, 1 failure, 2 usage, 130 interrupted.
enum CommandRunner {
  /// Runs `words` (the arguments after the program name) and returns the exit status.
  static func run(
    _ words: [String], root: Command,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Int32 {
    switch CommandParser(root: root).parse(words) {
    case .help(let path, let command):
      Console.out(CommandHelp.text(for: command, path: path))
      return 0
    case .missingSubcommand(let path, let command):
      Console.error(CommandHelp.text(for: command, path: path))
      return 2
    case .usageError(let path, let message):
      reportUsage(message, path: path)
      return 2
    case .run(let path, let command, let arguments):
      guard let body = command.run else { return 2 }
      let invocation = Invocation(path: path, arguments: arguments, environment: environment)
      let interruptible = command.cancelsOnInterrupt
      return runBlocking {
        do {
          if interruptible {
            return try await cancellingOnInterrupt { try await body(invocation) }
          }
          return try await body(invocation)
        } catch {
          return report(error, path: path)
        }
      }
    }
  }

  /// Prints the one-line report of `error` and returns its exit status.
  static func report(_ error: any Error, path: [String]) -> Int32 {
    switch error {
    case let usage as UsageError:
      reportUsage(usage.message, path: path)
      return 2
    case let exit as CommandExit:
      if !exit.message.isEmpty { Console.error(Console.oneLine(exit.message) + "\n") }
      return exit.status
    case is CancellationError:
      Console.error("Cancelled.\n")
      return 130
    case let error as AuthError:
      Console.error(describe(error) + "\n")
      return 1
    default:
      Console.error("error: failed: \(Console.oneLine(String(describing: error)))\n")
      return 1
    }
  }

  /// `error: <reason>: <message> (<what the provider said>)` on one line: the JOSE reason for
  /// token checks, else the error's code; then the provider's own codes when it gave any.
  static func describe(_ error: AuthError) -> String {
    let reason = error.joseError?.reason.rawValue ?? error.code.rawValue
    let message = error.joseError?.message ?? error.message
    // A sign-out wraps what the provider said: name the provider's own codes from the cause.
    let said =
      error.oauth == nil && error.providerCode == nil
      ? (error.underlying as? AuthError) ?? error : error
    var details: [String] = []
    if let provider = error.provider { details.append("provider \(provider)") }
    if let status = said.httpStatus { details.append("HTTP \(status)") }
    if let oauth = said.oauth {
      var text = "error \(oauth.error)"
      if let description = oauth.errorDescription { text += ": \(description)" }
      details.append(text)
    }
    if let code = said.providerCode {
      details.append(
        "code \(code)" + (said.providerSubcode.map { ", subcode \($0)" } ?? ""))
    }
    let suffix =
      details.count > (error.provider == nil ? 0 : 1)
      ? " (\(details.joined(separator: "; ")))" : ""
    return "error: \(reason): \(Console.oneLine(message + suffix))"
  }

  private static func reportUsage(_ message: String, path: [String]) {
    let name = (["sociallogin"] + path).joined(separator: " ")
    // A message passed on from the library already ends its sentence.
    let line = Console.oneLine(message)
    let sentence = line.hasSuffix(".") ? line : line + "."
    Console.error("\(name): \(sentence) \(CommandHelp.seeHelp(path: path))\n")
  }

  /// Runs `body`, cancelling it when the user presses Ctrl-C (SIGINT) or SIGTERM arrives, so
  /// sockets are closed and pending logins discarded before the process exits (status 130).
  static func cancellingOnInterrupt<T: Sendable>(
    _ body: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let task = Task { try await body() }
    let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { task.cancel() }
      source.resume()
      return source
    }
    defer { for source in sources { source.cancel() } }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }
}
