import Dispatch
import Foundation
import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let loginUsage = """
  USAGE:
    sociallogin login oidc --issuer URL --client-id ID [--client-secret-env NAME]
                           [--scope S]... [--redirect-port N] [--no-browser]
                           [--timeout SECONDS] [--store DIR]

  Signs in with any OpenID Connect provider through your browser and a redirect to
  http://127.0.0.1:<port>/callback (authorization code + PKCE + nonce; the ID token is verified).
  Prints 'Open this URL to sign in: <url>' on stderr, then the identity as JSON on stdout, and
  stores the session (files 0600) in DIR (default: $XDG_CONFIG_HOME/sociallogin/sessions or
  ~/.config/sociallogin/sessions).

  --client-secret-env NAME  read the client secret from environment variable NAME
  --scope S                 scope to request (repeatable; default: openid profile email)
  --redirect-port N         fixed loopback port (register http://127.0.0.1:N/callback);
                            default: any free port
  --no-browser              only print the URL; do not try to open a browser
  --timeout SECONDS         give up waiting for the browser after SECONDS (default 300)

  Exit status: 0 signed in, 1 failed or timed out, 2 bad usage, 130 interrupted (Ctrl-C).

  """

/// Runs `sociallogin login …` and returns the exit status.
func runLoginCommand(_ arguments: [String]) -> Int32 {
  let options: LoginOptions
  do {
    options = try LoginOptions(arguments)
  } catch {
    writeError("sociallogin login: \(error.message)\n\n\(loginUsage)")
    return 2
  }
  if options.help {
    print(loginUsage, terminator: "")
    return 0
  }
  return runBlocking { await LoginCommand(options: options).run() }
}

struct LoginUsageError: Error {
  var message: String
}

struct LoginOptions: Sendable {
  var issuer: URL?
  var clientID: String?
  var secretVariable: String?
  var scopes: [String] = []
  var redirectPort: UInt16 = 0
  var openBrowser = true
  var timeout: Duration = LoopbackUserAgent.defaultTimeout
  var storeDirectory: URL?
  var help = false

  init(_ arguments: [String]) throws(LoginUsageError) {
    var rest = arguments[...]
    guard let flavor = rest.popFirst() else { throw LoginUsageError(message: "missing provider") }
    if flavor == "-h" || flavor == "--help" {
      help = true
      return
    }
    guard flavor == "oidc" else {
      throw LoginUsageError(message: "unknown provider '\(flavor)' (supported: oidc)")
    }
    func value(_ flag: String) throws(LoginUsageError) -> String {
      guard let next = rest.popFirst(), !next.hasPrefix("--") else {
        throw LoginUsageError(message: "\(flag) needs a value")
      }
      return next
    }
    while let flag = rest.popFirst() {
      switch flag {
      case "--issuer":
        let text = try value(flag)
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http",
          url.host != nil
        else { throw LoginUsageError(message: "--issuer must be an http(s) URL") }
        issuer = url
      case "--client-id": clientID = try value(flag)
      case "--client-secret-env": secretVariable = try value(flag)
      case "--scope":
        scopes += try value(flag).split(separator: " ").map(String.init)
      case "--redirect-port":
        guard let port = UInt16(try value(flag)), port > 0 else {
          throw LoginUsageError(message: "--redirect-port must be 1...65535")
        }
        redirectPort = port
      case "--no-browser": openBrowser = false
      case "--timeout":
        guard let seconds = Int(try value(flag)), seconds > 0 else {
          throw LoginUsageError(message: "--timeout must be a positive number of seconds")
        }
        timeout = .seconds(seconds)
      case "--store": storeDirectory = URL(fileURLWithPath: try value(flag), isDirectory: true)
      case "-h", "--help": help = true
      default: throw LoginUsageError(message: "unknown option '\(flag)'")
      }
    }
    guard help || (issuer != nil && clientID != nil) else {
      throw LoginUsageError(message: "--issuer and --client-id are required")
    }
  }
}

struct LoginCommand: Sendable {
  let options: LoginOptions

  func run() async -> Int32 {
    guard let issuer = options.issuer, let clientID = options.clientID else { return 2 }
    var secret: Secret?
    if let name = options.secretVariable {
      guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
        writeError("error: configuration: environment variable \(name) is not set.\n")
        return 2
      }
      secret = Secret(value)
    }
    let provider = OIDCProvider(
      id: "oidc",
      configuration: OIDCProvider.Configuration(
        issuer: issuer, clientID: clientID, clientSecret: secret,
        scopes: options.scopes.isEmpty ? ["openid", "profile", "email"] : options.scopes))
    let agent = LoopbackUserAgent(
      port: options.redirectPort, timeout: options.timeout,
      openBrowser: options.openBrowser ? LoopbackUserAgent.systemBrowser : Self.printURL)
    do {
      let store = try FileSessionStore(directory: options.storeDirectory ?? Self.defaultStore())
      let client = try LoginClient(
        providers: [provider], store: store, userAgent: agent)
      let session = try await Self.cancellingOnInterrupt {
        try await client.login(provider.id, using: agent)
      }
      guard let identity = await session.identity else {
        writeError("error: invalid_response: the provider did not identify the user.\n")
        return 1
      }
      print(Self.json(identity))
      return 0
    } catch is CancellationError {
      writeError("Login cancelled.\n")
      return 130
    } catch let error as AuthError {
      let hint = error.code == .timedOut ? " No browser came back in time." : ""
      writeError("error: \(error.code): \(error.message)\(hint)\n")
      return 1
    } catch {
      writeError("error: \(error)\n")
      return 1
    }
  }

  /// Prints the URL only (`--no-browser`).
  static let printURL: BrowserOpener = { url in
    FileHandle.standardError.write(Data("Open this URL to sign in: \(url.absoluteString)\n".utf8))
  }

  /// `$XDG_CONFIG_HOME/sociallogin/sessions`, else `~/.config/sociallogin/sessions`.
  static func defaultStore() -> URL {
    let environment = ProcessInfo.processInfo.environment
    let base =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
    return base.appendingPathComponent("sociallogin/sessions", isDirectory: true)
  }

  /// Runs `body`, cancelling it when the user presses Ctrl-C (SIGINT) or SIGTERM arrives, so
  /// the loopback socket is closed and the pending login discarded before the process exits.
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

  /// The identity as pretty JSON: subject, provider, profile fields and every claim.
  static func json(_ identity: Identity) -> String {
    var object: [String: JSONValue] = [
      "provider": .string(identity.provider.rawValue),
      "subject": .string(identity.subject),
      "claims": identity.rawClaims,
    ]
    if let name = identity.name { object["name"] = .string(name) }
    if let email = identity.email { object["email"] = .string(email) }
    if let verified = identity.emailVerified { object["email_verified"] = .bool(verified) }
    if let picture = identity.pictureURL { object["picture"] = .string(picture.absoluteString) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(JSONValue.object(object)) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
