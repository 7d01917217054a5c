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
/// Its options are declared in ``EmulatorCommands/emulator`` and checked by the one parser.
enum EmulatorCommand {
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

  /// The warning for `--access-token-ttl` at or below the SDK's default refresh leeway: such
  /// tokens are refreshed on every request, and no proactive refresh is ever seen.
  static func leewayWarning(accessTokenTTL: TimeInterval?) -> String? {
    let leeway = RefreshPolicy().leeway.components.seconds
    guard let accessTokenTTL, accessTokenTTL <= TimeInterval(leeway) else { return nil }
    let shown =
      accessTokenTTL == accessTokenTTL.rounded()
      ? String(Int(accessTokenTTL)) : String(accessTokenTTL)
    return "--access-token-ttl \(shown) is at or below the SDK's default refresh leeway "
      + "(RefreshPolicy.leeway, \(leeway) s): a client with the default policy treats every "
      + "token as expired and refreshes on every token request; use more than \(leeway) s, "
      + "or a smaller leeway"
  }

  /// Runs the emulator until SIGINT (exit 130) or SIGTERM (exit 0); 1 when it cannot listen.
  ///
  /// - Parameters:
  ///   - port: The port to listen on; 0 for any free one.
  ///   - accessTokenTTL: Every provider's access-token lifetime, or `nil` for the defaults.
  ///   - userIDs: The `--user` ids, in order (the first is signed in); empty for the defaults.
  ///   - described: The `--provider-file` descriptions, served beside the built-in ones.
  static func run(
    port: UInt16, accessTokenTTL: TimeInterval?, userIDs: [String],
    described: [ProviderDescription] = []
  ) async -> Int32 {
    let signals = SignalWaiter([SIGINT, SIGTERM])
    let emulator: ProviderEmulator
    do {
      emulator = try ProviderEmulator(
        port: port, users: users(userIDs), accessTokenTTL: accessTokenTTL, describing: described)
    } catch {
      writeError("sociallogin emulator: cannot listen: \(Console.oneLine("\(error)"))\n")
      return 1
    }
    emulator.start()
    let hostPort = "127.0.0.1:\(emulator.port)"
    var lines = [
      "SocialLogin provider emulator listening on \(emulator.baseURL.absoluteString)",
      "export SOCIALLOGIN_EMULATOR_HOST=\(hostPort)",
      "export FIREBASE_AUTH_EMULATOR_HOST=\(hostPort)   # Firebase's own convention, same host",
      "",
      "Default apps (public test credentials):",
    ]
    for app in EmulatorApps.summary {
      lines.append(
        "  " + app.provider.padding(toLength: 28, withPad: " ", startingAt: 0)
          + "client id \(app.clientID)  secret \(app.clientSecret)")
    }
    lines += [
      "  " + "Firebase".padding(toLength: 28, withPad: " ", startingAt: 0)
        + "API key \(EmulatorApps.firebaseAPIKey)  project id \(EmulatorApps.firebaseProjectID)",
      "OpenID issuer: \(emulator.oidcIssuer.absoluteString)",
      "Users: " + emulator.users.map(\.id).joined(separator: ", ")
        + " (signed in: \(emulator.currentUser?.id ?? "-"))",
      "Controls: \(emulator.baseURL.absoluteString)/_emulator/  (Ctrl-C to stop)",
    ]
    print(lines.joined(separator: "\n"))
    if let warning = leewayWarning(accessTokenTTL: accessTokenTTL) {
      writeError("sociallogin emulator: warning: \(warning)\n")
    }
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
