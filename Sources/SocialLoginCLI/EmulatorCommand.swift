import Dispatch
import Foundation
import SocialLogin
import SocialLoginEmulator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sociallogin emulator`: the provider emulator in the foreground, for tests in any language.
enum EmulatorCommand {
  static let usage = """
    USAGE: sociallogin emulator [--port N] [--access-token-ttl SECONDS] [--user ID]...

    Runs the provider emulator (Facebook, X, LINE and a generic OpenID provider) on
    127.0.0.1 in the foreground, each provider under its production host name:
    http://127.0.0.1:PORT/api.x.com/2/oauth2/token and so on. Logins auto-approve as the
    current user. Controls (faults, users, transcript) are under /_emulator/.

      --port N                  listen on port N (default: any free port)
      --access-token-ttl SECS   every provider's access-token lifetime
      --user ID                 a user (repeatable; the first is signed in); default:
                                alice, bob, carol

    Prints the base URL and the 'export SOCIALLOGIN_EMULATOR_HOST=...' line on stdout.
    Exit status: 0 on SIGTERM, 130 on Ctrl-C, 1 when the port cannot be bound, 2 bad usage.

    """

  struct Options {
    var port: UInt16 = 0
    var accessTokenTTL: TimeInterval?
    var users: [String] = []
    var help = false
  }

  /// Parses the arguments after `emulator`.
  static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
    var options = Options()
    var index = 0
    func value(_ flag: String) -> Result<String, UsageError> {
      index += 1
      guard index < arguments.count else { return .failure(UsageError("\(flag) needs a value")) }
      return .success(arguments[index])
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "-h", "--help": options.help = true
      case "--port":
        guard case .success(let text) = value(argument), let port = UInt16(text) else {
          return .failure(UsageError("--port needs a port number 0...65535"))
        }
        options.port = port
      case "--access-token-ttl":
        guard case .success(let text) = value(argument), let seconds = TimeInterval(text),
          seconds.isFinite, seconds > 0, seconds < 1e9
        else {
          return .failure(UsageError("--access-token-ttl needs a positive number of seconds"))
        }
        options.accessTokenTTL = seconds
      case "--user":
        guard case .success(let id) = value(argument), !id.isEmpty, id.count <= 64,
          id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
        else { return .failure(UsageError("--user needs an id of letters, digits, - _ .")) }
        options.users.append(id)
      default:
        return .failure(UsageError("unknown option '\(argument)'"))
      }
      index += 1
    }
    return .success(options)
  }

  struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// The users for `--user` ids: the built-in ones by id, others named after their id.
  static func users(_ ids: [String]) -> [EmulatedUser] {
    guard !ids.isEmpty else { return EmulatedUser.defaults }
    var users: [EmulatedUser] = []
    for id in ids where !users.contains(where: { $0.id == id }) {
      if let known = EmulatedUser.defaults.first(where: { $0.id == id }) {
        users.append(known)
      } else {
        users.append(
          EmulatedUser(
            id: id, name: id.prefix(1).uppercased() + id.dropFirst(),
            email: "\(id)@example.test", picture: "https://pictures.example.test/\(id).png"))
      }
    }
    return users
  }

  /// Runs the command and returns the exit status.
  static func run(arguments: [String]) async -> Int32 {
    let options: Options
    switch parse(arguments) {
    case .failure(let error):
      writeError("sociallogin emulator: \(error.message)\n\n\(usage)")
      return 2
    case .success(let parsed): options = parsed
    }
    if options.help {
      print(usage, terminator: "")
      return 0
    }
    let signals = SignalWaiter([SIGINT, SIGTERM])
    let emulator: ProviderEmulator
    do {
      emulator = try ProviderEmulator(
        port: options.port, users: users(options.users), accessTokenTTL: options.accessTokenTTL)
    } catch {
      writeError("sociallogin emulator: cannot listen: \(error)\n")
      return 1
    }
    emulator.start()
    let hostPort = "127.0.0.1:\(emulator.port)"
    var lines = [
      "SocialLogin provider emulator listening on \(emulator.baseURL.absoluteString)",
      "export SOCIALLOGIN_EMULATOR_HOST=\(hostPort)",
      "",
      "Default apps (public test credentials):",
    ]
    for app in EmulatorApps.summary {
      lines.append(
        "  " + app.provider.padding(toLength: 28, withPad: " ", startingAt: 0)
          + "client id \(app.clientID)  secret \(app.clientSecret)")
    }
    lines += [
      "OpenID issuer: \(emulator.oidcIssuer.absoluteString)",
      "Users: " + emulator.users.map(\.id).joined(separator: ", ")
        + " (signed in: \(emulator.currentUser?.id ?? "-"))",
      "Controls: \(emulator.baseURL.absoluteString)/_emulator/  (Ctrl-C to stop)",
    ]
    print(lines.joined(separator: "\n"))
    fflush(nil)
    let received = await signals.next()
    await emulator.shutdown()
    return received == SIGINT ? 130 : 0
  }
}

/// Turns the first of some signals into a value, instead of the default "terminate".
///
/// `@unchecked Sendable`: `sources` is written once in `init` and only kept alive afterwards
/// (never touched again); the dispatch sources themselves are thread-safe.
final class SignalWaiter: @unchecked Sendable {
  private let stream: AsyncStream<Int32>
  private let sources: [any DispatchSourceSignal]

  init(_ numbers: [Int32]) {
    let (stream, sink) = AsyncStream.makeStream(of: Int32.self)
    self.stream = stream
    let queue = DispatchQueue(label: "sociallogin.signals")
    sources = numbers.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { sink.yield(number) }
      source.resume()
      return source
    }
  }

  /// The first signal received.
  func next() async -> Int32 {
    for await number in stream { return number }
    return SIGTERM
  }
}
