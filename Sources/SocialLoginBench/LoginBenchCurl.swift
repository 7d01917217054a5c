import Foundation
import GlewlwydTestPeer
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting

/// The SDK login's HTTP requests made with one `curl` process each: sign in, consent, follow
/// the authorization URL (→ 302 to the callback), exchange the code with the PKCE verifier,
/// GET userinfo. State, nonce and the PKCE pair come from the SDK's own primitives.
struct CurlLogin: Sendable {
  static let executable = "/usr/bin/curl"

  static var isInstalled: Bool {
    FileManager.default.isExecutableFile(atPath: executable)
  }

  /// One curl sequence: wall time including the process spawns, and the sum of curl's own
  /// `time_total` over the requests.
  struct Run: Sendable {
    var wallMilliseconds: Double
    var timeTotalMilliseconds: Double
    /// Curl's `time_total` for the three browser requests (sign-in, consent, authorize).
    var browserMilliseconds: Double
  }

  struct Reply: Sendable {
    var status: Int
    var seconds: Double
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> String? {
      headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
  }

  let peer: GlewlwydPeer
  let metadata: OIDCProviderMetadata

  /// Runs the sequence on a Dispatch thread: the spawns block, and the cooperative pool must
  /// not be held up by them.
  func run() async throws -> Run {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try runBlocking() })
      }
    }
  }

  private func runBlocking() throws -> Run {
    let clientID = GlewlwydPeer.publicClient
    let redirectURI = peer.redirectURI
    let state = SecureRandom.urlSafeToken(byteCount: 32)
    let nonce = SecureRandom.urlSafeToken(byteCount: 32)
    let verifier = PKCE.makeVerifier()
    let challenge = PKCE.s256Challenge(for: verifier)
    let authorizeQuery = FormEncoding.encode([
      ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
      ("scope", "openid"), ("state", state), ("nonce", nonce), ("code_challenge", challenge),
      ("code_challenge_method", "S256"),
    ])
    let authorizeURL = metadata.authorizationEndpoint.absoluteString + "?" + authorizeQuery
    let json = ["-H", "Content-Type: application/json"]

    var seconds = 0.0
    let clock = ContinuousClock()
    let start = clock.now

    let signIn = try curl(
      ["-X", "POST"] + json
        + [
          "--data-binary",
          #"{"username":"\#(GlewlwydPeer.user)","password":"\#(GlewlwydPeer.password)"}"#,
          peer.baseURL.appendingPathComponent("api/auth/").absoluteString,
        ], expecting: 200)
    seconds += signIn.seconds
    guard let cookie = signIn.header("Set-Cookie")?.split(separator: ";").first else {
      throw PeerError("curl sign-in returned no session cookie")
    }
    let cookieHeader = ["-H", "Cookie: \(cookie)"]

    let consent = try curl(
      ["-X", "PUT"] + json + cookieHeader
        + [
          "--data-binary", #"{"scope":"openid"}"#,
          peer.baseURL.appendingPathComponent("api/auth/grant/\(clientID)").absoluteString,
        ], expecting: 200)
    seconds += consent.seconds

    let authorize = try curl(cookieHeader + [authorizeURL + "&g_continue"], expecting: 302)
    seconds += authorize.seconds
    let browserSeconds = seconds
    guard let location = authorize.header("Location"),
      let components = URLComponents(string: location),
      components.queryItems?.first(where: { $0.name == "state" })?.value == state,
      let code = components.queryItems?.first(where: { $0.name == "code" })?.value
    else { throw PeerError("curl authorization redirect had no code or the wrong state") }

    let token = try curl(
      [
        "-X", "POST", "-H", "Content-Type: \(FormEncoding.contentType)", "--data-binary",
        FormEncoding.encode([
          ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
          ("client_id", clientID), ("code_verifier", verifier),
        ]),
        metadata.tokenEndpoint.absoluteString,
      ], expecting: 200)
    seconds += token.seconds
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(token.body.utf8))
        as? [String: Any],
      let accessToken = object["access_token"] as? String,
      object["id_token"] is String
    else { throw PeerError("curl token response had no access_token or id_token") }

    guard let userinfoURL = metadata.userinfoEndpoint else {
      throw PeerError("discovery has no userinfo endpoint")
    }
    let userinfo = try curl(
      ["-H", "Authorization: Bearer \(accessToken)", userinfoURL.absoluteString], expecting: 200)
    seconds += userinfo.seconds
    guard userinfo.body.contains(GlewlwydPeer.email) else {
      throw PeerError("curl userinfo did not name alice")
    }

    let wall = clock.now - start
    return Run(
      wallMilliseconds: wall.nanoseconds / 1e6, timeTotalMilliseconds: seconds * 1e3,
      browserMilliseconds: browserSeconds * 1e3)
  }

  /// Runs `curl -sS -D - -w '\n%{http_code} %{time_total}' ARGS` and splits its output into
  /// status, time, headers and body.
  private func curl(_ arguments: [String], expecting status: Int) throws -> Reply {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = ["-sS", "-D", "-", "-w", "\n%{http_code} %{time_total}"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0,
      let lastNewline = text.lastIndex(of: "\n")
    else { throw PeerError("curl exited with status \(process.terminationStatus)") }
    let trailer = text[text.index(after: lastNewline)...].split(separator: " ")
    guard trailer.count == 2, let code = Int(trailer[0]), let seconds = Double(trailer[1]) else {
      throw PeerError("curl printed no status and time")
    }
    guard code == status else {
      throw PeerError("curl got HTTP \(code), expected \(status)")
    }
    let response = text[..<lastNewline]
    let headerEnd = response.range(of: "\r\n\r\n")
    let headerText = headerEnd.map { response[..<$0.lowerBound] } ?? response
    let body = headerEnd.map { String(response[$0.upperBound...]) } ?? ""
    let headers = headerText.split(separator: "\r\n").dropFirst().compactMap {
      line -> (String, String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (
        String(line[..<colon]),
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      )
    }
    return Reply(status: code, seconds: seconds, headers: headers, body: body)
  }
}
