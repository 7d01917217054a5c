import CLITestProcess
import Foundation
import GlewlwydTestPeer
import SocialLogin
import SocialLoginTesting
import TestPacing
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `sociallogin emulator` and `sociallogin demo` as users run them: real processes, and a test
/// playing the browser with plain HTTP GETs.
@Suite(
  "CLI: sociallogin emulator and demo", .oneCLIAtATime, .serialized, .timeLimit(.minutes(3)),
  .enabled(
    if: CLITestProcess.CLIProcess.executable != nil,
    "needs a built .build/debug/sociallogin (swift build)")
)
struct EmulatorCLITests {
  @Test func demoExitsZeroAndShowsEveryStep() async throws {
    let process = try LineProcess(arguments: ["demo"])
    let result = try await process.finish(within: .seconds(60))
    #expect(result.status == 0, "\(result.stdout)")
    for line in [
      "try await login(.twitter)", "try await login(.facebook)", "try await login(.line)",
      "1 distinct token for 1,000 callers", "grant_type=refresh_token -> 200",
      "X answered invalid_request", "adopted the other copy's rotated token and is still .signedIn",
      "ok   stale X refresh token                  rejected, rotated token adopted",
      "state: .degraded(retryAt:",
      "the LINE session is now .signedOut(",
      "ok   1,000 callers after expiry             1 refresh request",
      "providers: facebook.com", "POST /securetoken.googleapis.com/v1/token -> 200",
      "signOut() -> .signedOut(user initiated)",
      "ok   Firebase ID token refresh              1 securetoken request",
      "try await login(.apple)", "POST /appleid.apple.com/auth/revoke -> 200",
      "the Apple session is now .signedOut(account deleted)",
      "ok   account deletion revokes Apple tokens",
      "login.deviceLogin(\"oidc\")", "ok   deviceLogin(\"oidc\") (RFC 8628)",
      "12. Kakao, a provider written as a description: try await login(.kakao)",
      "Kakao sent no new refresh token (only in its last month), so the old one is kept",
      "ok   login(.kakao) + refresh (description)",
    ] {
      #expect(result.stdout.contains(line), "missing: \(line)")
    }
    #expect(!result.stdout.contains("FAIL"))
  }

  /// Issue 23: `demo --metrics` ends with the exposition of everything the demo did, and
  /// Prometheus's linter accepts it.
  @Test(.enabled(if: Promtool.path != nil || Promtool.required, "\(Promtool.missing)"))
  func demoWithMetricsEndsWithAnExpositionPromtoolAccepts() async throws {
    let process = try LineProcess(arguments: ["demo", "--metrics"])
    let result = try await process.finish(within: .seconds(60))
    #expect(result.status == 0, "\(result.stdout)")
    let parts = result.stdout.components(separatedBy: "\n# metrics\n")
    try #require(parts.count == 2, "one line `# metrics`: \(result.stdout)")
    let exposition = parts[1]
    let samples = Set(exposition.split(separator: "\n").map(String.init))
    for line in [
      // the logins, X's among them
      #"sociallogin_logins_total{provider="twitter",outcome="succeeded",code=""} 1"#,
      #"sociallogin_logins_total{provider="line",outcome="succeeded",code=""} 1"#,
      // the 1,000-caller refresh: one flight, 999 joined it
      #"sociallogin_refreshes_total{provider="twitter",outcome="joined"} 999"#,
      // the stale copy's rotated token adopted
      #"sociallogin_refreshes_total{provider="twitter",outcome="adopted"} 1"#,
      // the 429
      #"sociallogin_refreshes_total{provider="twitter",outcome="degraded"} 1"#,
      #"sociallogin_sessions_degraded{provider="twitter"} 0"#,
      // the revoked LINE token
      #"sociallogin_sign_outs_total{provider="line",reason="refresh_token_expired"} 1"#,
      // Firebase: the sign-in, the ID-token refresh, the sign-out
      #"sociallogin_logins_total{provider="firebase",outcome="succeeded",code=""} 1"#,
      #"sociallogin_refreshes_total{provider="firebase",outcome="refreshed"} 1"#,
      #"sociallogin_sign_outs_total{provider="firebase",reason="user_initiated"} 1"#,
    ] {
      #expect(samples.contains(line), "missing: \(line)\n---\n\(exposition)")
    }
    #expect(
      samples.contains { $0.hasPrefix("sociallogin_degradations_total{provider=\"twitter\"") })
    let (status, output) = try await Promtool.checkMetrics(exposition)
    #expect(status == 0, "promtool: \(output)")
  }

  @Test func emulatorProcessServesALoginToAPlainHTTPClientAndStopsOnCtrlC() async throws {
    let process = try LineProcess(arguments: [
      "emulator", "--user", "bob", "--access-token-ttl", "60",
    ])
    let export = try await process.waitForLine(prefix: "export SOCIALLOGIN_EMULATOR_HOST=")
    let hostPort = String(export.dropFirst("export SOCIALLOGIN_EMULATOR_HOST=".count))
    let base = "http://\(hostPort)"
    // The default apps come from the status document, as a test in another language reads them.
    let status = try await Browser.get(base + "/")
    let apps = try #require(status.json?["apps"]?.arrayValue)
    let publicClient = try #require(
      apps.first { $0["provider"]?.stringValue == "twitter (OAuth 2.0 public)" }?["client_id"]?
        .stringValue)
    let verifier = String(repeating: "v", count: 43)
    let challenge = "7w_YNF9DSfIdPf_pRjSq646_kPr-2-o9NAl16JGghdM"
    let authorize = try await Browser.get(
      base + "/x.com/i/oauth2/authorize?response_type=code&client_id=\(publicClient)"
        + "&redirect_uri=http://127.0.0.1:9/cb&scope=users.read%20tweet.read&state=st"
        + "&code_challenge=\(challenge)&code_challenge_method=S256")
    #expect(authorize.status == 302)
    let location = try #require(authorize.headers["location"].flatMap(URLComponents.init(string:)))
    #expect(location.queryItems?.first { $0.name == "state" }?.value == "st")
    let code = try #require(location.queryItems?.first { $0.name == "code" }?.value)
    let token = try await Browser.post(
      base + "/api.x.com/2/oauth2/token",
      form:
        "grant_type=authorization_code&code=\(code)&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb"
        + "&code_verifier=\(verifier)&client_id=\(publicClient)")
    #expect(token.status == 200)
    #expect(token.json?["expires_in"]?.doubleValue == 60)
    let access = try #require(token.json?["access_token"]?.stringValue)
    let me = try await Browser.get(base + "/api.x.com/2/users/me", bearer: access)
    #expect(me.json?["data"]?["name"]?.stringValue == "Bob Example")
    process.signal(SIGINT)
    let result = try await process.finish(within: .seconds(20))
    #expect(result.status == 130)
  }

  /// Issue 33: access tokens that last no longer than the SDK's default leeway are refreshed
  /// on every request; the emulator says so when asked for them, and not otherwise.
  @Test func anAccessTokenTTLWithinTheDefaultLeewayIsWarnedAbout() async throws {
    for (ttl, warned) in [("5", true), ("30", true), ("31", false)] {
      let process = try LineProcess(arguments: ["emulator", "--access-token-ttl", ttl])
      _ = try await process.waitForLine(prefix: "Controls: ")
      process.signal(SIGTERM)
      let result = try await process.finishWithErrors(within: .seconds(20))
      #expect(result.status == 0)
      #expect(
        result.stderr.contains(
          "--access-token-ttl \(ttl) is at or below the SDK's default "
            + "refresh leeway") == warned, "\(ttl): \(result.stderr)")
      #expect(!result.stdout.contains("leeway"))
    }
  }

  @Test func emulatorExitsZeroOnSIGTERMAndTwoOnBadUsage() async throws {
    let process = try LineProcess(arguments: ["emulator"])
    _ = try await process.waitForLine(prefix: "export SOCIALLOGIN_EMULATOR_HOST=")
    process.signal(SIGTERM)
    #expect(try await process.finish(within: .seconds(20)).status == 0)
    let bad = try LineProcess(arguments: ["emulator", "--port", "seventy"])
    #expect(try await bad.finish(within: .seconds(20)).status == 2)
  }
}

/// Plain HTTP for the browser's part, redirects not followed.
enum Browser {
  struct Answer {
    var status: Int
    var headers: [String: String]
    var body: Data
    var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: body) }
  }

  static func get(_ url: String, bearer: String? = nil) async throws -> Answer {
    var request = URLRequest(url: try #require(URL(string: url)))
    if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
    return try await send(request)
  }

  static func post(_ url: String, form: String) async throws -> Answer {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = "POST"
    request.httpBody = Data(form.utf8)
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    return try await send(request)
  }

  static func send(_ request: URLRequest) async throws -> Answer {
    var request = request
    request.timeoutInterval = 10
    let (data, response) = try await session.data(for: request)
    let http = response as? HTTPURLResponse
    var headers: [String: String] = [:]
    for (name, value) in http?.allHeaderFields ?? [:] {
      headers[String(describing: name).lowercased()] = String(describing: value)
    }
    return Answer(status: http?.statusCode ?? 0, headers: headers, body: data)
  }

  static let session = URLSession(
    configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)

  final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }
  }
}

/// The CLI as a subprocess whose stdout is readable line by line while it runs.
final class LineProcess: @unchecked Sendable {
  // `text` is only touched under `lock`; the process and pipe are set up once in `init`.
  private let process = Process()
  private let output = Pipe()
  /// Read once the process has exited (what a test checks there is a line or two).
  private let errors = Pipe()
  private let lock = NSLock()
  private var text = ""

  init(arguments: [String]) throws {
    guard let url = CLITestProcess.CLIProcess.executable else {
      throw PeerError("sociallogin is not built")
    }
    process.executableURL = url
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = errors
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let chunk = handle.availableData
      guard let self, !chunk.isEmpty else { return }
      self.lock.withLock { self.text += String(decoding: chunk, as: UTF8.self) }
    }
    try process.run()
  }

  var stdout: String { lock.withLock { text } }

  func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  func waitForLine(prefix: String, within limit: Duration = .seconds(30)) async throws -> String {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while ContinuousClock.now < deadline {
      let current = stdout
      if let line = current.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
        current.contains(line + "\n")
      {
        return String(line)
      }
      guard process.isRunning else { throw PeerError("CLI exited early: \(current)") }
      try await Task.sleep(for: .milliseconds(20))
    }
    process.terminate()
    throw PeerError("no line starting with '\(prefix)' within \(limit): \(stdout)")
  }

  func finish(within limit: Duration) async throws -> (status: Int32, stdout: String) {
    let result = try await finishWithErrors(within: limit)
    return (result.status, result.stdout)
  }

  /// Waits for the exit, then returns the status, stdout and stderr.
  func finishWithErrors(within limit: Duration) async throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while process.isRunning {
      guard ContinuousClock.now < deadline else {
        process.terminate()
        throw PeerError("the CLI did not exit within \(limit)")
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    output.fileHandleForReading.readabilityHandler = nil
    let rest = output.fileHandleForReading.readDataToEndOfFile()
    lock.withLock { text += String(decoding: rest, as: UTF8.self) }
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, stdout, stderr)
  }
}
