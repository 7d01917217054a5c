import Foundation
import LoopbackHTTP
import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sociallogin events --listen 127.0.0.1:PORT`: an operator's sidecar that receives the
/// events providers push (back-channel logout, Google RISC, Kakao SSF, Facebook, Apple) and
/// ends the matching stored sessions, until SIGTERM.
enum EventsCommand {
  static let listen = Option.value(
    "--listen", "HOST:PORT",
    help: "where to listen: a loopback HOST:PORT (port 0 for any free one)")

  static let command = Command(
    name: "events", summary: "Receive providers' logout and revocation events.",
    discussion: """
      Serves POST /oidc/backchannel-logout, /google/risc, /kakao/ssf, /facebook/deauthorize, \
      /facebook/data-deletion and /apple/notifications on the loopback address --listen \
      names, until SIGTERM (exit 0) or Ctrl-C (exit 130). Each event is verified with the \
      keys (or the app secret) of the providers the stored sessions were made with, as \
      their remembered profiles say — the emulator's when they were made with it — and ends \
      the matching sessions in the store, so that every service replica sharing it ends them \
      too. Seen event ids (jti) are kept in the store's nonce store, so a restart does not \
      forget them. Prints the base URL on stdout once listening; one line per event on stderr.
      """,
    options: [
      listen, StoreLocation.option, StoreLocation.sealingOption,
      StoreLocation.keyPrefixOption,
    ],
    cancelsOnInterrupt: false,
    run: run)

  static func run(_ invocation: Invocation) async throws -> Int32 {
    guard let text = invocation.arguments.value(listen) else {
      throw UsageError("--listen HOST:PORT is required")
    }
    let (address, port) = try address(text)
    let location = try await StoreLocation.open(invocation)
    let providers = try self.providers(location, invocation)
    let client = try LoginClient(providers: providers, store: location.store)
    let receiver = ProviderEventReceiver(
      client: client, seen: try await NonceCommand.store(invocation))
    let signals = SignalWaiter([SIGINT, SIGTERM])
    let server: LoopbackServer
    do {
      server = try LoopbackServer(bindTo: address, port: port)
    } catch {
      throw CommandExit(status: 1, message: "cannot listen on \(text): \(error)")
    }
    let serving = Task {
      try await server.run { request in
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name] = field.value }
        let answer = await receiver.handle(
          ProviderEventRequest(
            method: request.method, path: request.target, headers: headers, body: request.body))
        Console.error("\(request.method) \(request.path) -> \(answer.status)\n")
        var fields = HTTPHeaders()
        for (name, value) in answer.headers { fields.replaceOrAdd(name: name, value: value) }
        return HTTPResponse(status: answer.status, headers: fields, body: answer.body)
      }
    }
    Console.out(server.baseURL + "\n")
    Console.error(
      "Receiving provider events for \(providers.map(\.id.rawValue).sorted().joined(separator: ", ")) "
        + "on \(server.baseURL) (store \(location.displayName)).\n")
    fflush(nil)
    let received = await signals.next()
    server.close()
    serving.cancel()
    return received == SIGINT ? 130 : 0
  }

  /// The loopback address and port of `--listen`.
  static func address(_ text: String) throws(UsageError) -> (LoopbackAddress, UInt16) {
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...])
    else {
      throw UsageError("--listen must be HOST:PORT")
    }
    switch text[..<colon] {
    case "127.0.0.1", "localhost": return (.ipv4, port)
    case "[::1]", "::1": return (.ipv6, port)
    default: throw UsageError("--listen must be on 127.0.0.1 or [::1]")
    }
  }

  /// One provider per provider id, built from the stored sessions' remembered profiles
  /// exactly as `logout --revoke` builds them (secrets from their environment variables, the
  /// emulator the session was made with).
  static func providers(_ location: StoreLocation, _ invocation: Invocation) throws
    -> [any LoginProvider]
  {
    var byID: [ProviderID: any LoginProvider] = [:]
    for (name, profile) in try location.profiles.load().sorted(by: { $0.key < $1.key }) {
      guard let colon = name.firstIndex(of: ":") else { continue }
      let key = SessionKey(
        provider: ProviderID(rawValue: String(name[..<colon])),
        subject: String(name[name.index(after: colon)...]))
      guard byID[key.provider] == nil else { continue }
      let resolved = try ProviderFactory.resolveStored(profile, for: key, invocation)
      let provider = try ProviderFactory.make(resolved)
      byID[provider.id] = provider
    }
    guard !byID.isEmpty else {
      throw CommandExit(
        status: 1,
        message: "No stored session has a profile: sign in with 'sociallogin login' first.")
    }
    return Array(byID.values)
  }
}
