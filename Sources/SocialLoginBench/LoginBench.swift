// The login benchmark: full logins (authorize → callback → token → ID-token verification →
// userinfo) against a local Glewlwyd, through the SDK and, in the same run, as the same HTTP
// requests made with curl. Goal: the SDK adds at most 10 % to what the requests cost.
//
// Options (environment, since the command line takes suite names only):
//   SOCIALLOGIN_BENCH_LOGIN_ITERATIONS  timed logins per side (default 30)
//   SOCIALLOGIN_BENCH_GLEWLWYD_SCRIPT   path of glewlwyd-peer.sh (default: found from #filePath)

import Foundation
import SocialLogin
import SocialLoginTesting

enum LoginBench {
  static let warmUpIterations = 3

  static func run() async -> [Figure] {
    let environment = ProcessInfo.processInfo.environment
    let iterations = environment["SOCIALLOGIN_BENCH_LOGIN_ITERATIONS"].flatMap { Int($0) } ?? 30
    guard iterations > 0 else { return [Figure("login", [("error", "bad_iterations")])] }
    guard GlewlwydPeer.isInstalled else {
      return [Figure("login", [("error", "glewlwyd_not_installed")])]
    }
    let script = scriptURL(environment: environment)
    guard FileManager.default.isReadableFile(atPath: script.path) else {
      return [Figure("login", [("error", "fixture_script_missing"), ("path", script.path)])]
    }
    let peer: GlewlwydPeer
    do {
      // The script stops the server once this process exits (it polls our pid).
      peer = try await GlewlwydPeer.start(script: script)
    } catch {
      return [Figure("login", [("error", "glewlwyd_did_not_start")])]
    }
    return await measure(peer: peer, iterations: iterations)
  }

  /// `Tests/SocialLoginIntegrationTests/Fixtures/glewlwyd-peer.sh`, found from this file's
  /// path in the checkout, unless the environment names another one.
  private static func scriptURL(environment: [String: String]) -> URL {
    if let path = environment["SOCIALLOGIN_BENCH_GLEWLWYD_SCRIPT"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // SocialLoginBench
      .deletingLastPathComponent()  // Sources
      .deletingLastPathComponent()  // package root
      .appendingPathComponent("Tests/SocialLoginIntegrationTests/Fixtures/glewlwyd-peer.sh")
  }

  private static func measure(peer: GlewlwydPeer, iterations: Int) async -> [Figure] {
    // One provider, as a real service would keep: discovery and JWKS stay cached after the
    // first login, so the timed logins pay only for the login itself.
    let provider = OIDCProvider(
      id: "glewlwyd",
      configuration: .init(
        issuer: peer.rsIssuer, clientID: GlewlwydPeer.publicClient, scopes: ["openid"],
        allowedAlgorithms: [.rs256]))
    let client = LoginClient(
      providers: [provider], store: InMemorySessionStore(),
      policy: RefreshPolicy(proactiveMargin: nil))
    let browser = GlewlwydBrowser(peer: peer, clientID: GlewlwydPeer.publicClient)
    let agent = HeadlessUserAgent(redirectURI: peer.redirectURI) {
      try await browser.authorize($0)
    }
    let sdkLogin: @Sendable () async throws -> Void = {
      let session = try await client.login("glewlwyd", using: agent)
      guard await session.identity?.email == GlewlwydPeer.email else {
        throw PeerError("the SDK login did not yield alice's profile")
      }
    }

    let metadata: OIDCProviderMetadata
    do {
      metadata = try await provider.metadata()
    } catch {
      return [Figure("login", [("error", "discovery_failed")])]
    }
    let curl = CurlLogin(peer: peer, metadata: metadata)
    let curlAvailable = CurlLogin.isInstalled

    var sdkSamples: [Double] = []
    var curlWall: [Double] = []
    var curlTimeTotal: [Double] = []
    let clock = ContinuousClock()
    // Warm-up, then the SDK and curl take turns, so that drift in the machine's load (two
    // cores shared with other work) falls on both sides alike.
    for index in 0..<(warmUpIterations + iterations) {
      let timed = index >= warmUpIterations
      let start = clock.now
      do {
        try await sdkLogin()
      } catch {
        return [Figure("login", [("error", "sdk_login_failed"), ("detail", describe(error))])]
      }
      let elapsed = clock.now - start
      if timed { sdkSamples.append(elapsed.nanoseconds / 1e6) }
      guard curlAvailable else { continue }
      do {
        let run = try await curl.run()
        if timed {
          curlWall.append(run.wallMilliseconds)
          curlTimeTotal.append(run.timeTotalMilliseconds)
        }
      } catch {
        return [Figure("login", [("error", "curl_login_failed"), ("detail", describe(error))])]
      }
    }
    blackHole(client)

    let sdkMedian = median(sdkSamples)
    var figures = [
      Figure(
        "login_sdk_ms",
        [
          ("median", format(sdkMedian, decimals: 2)),
          ("p90", format(percentile(sdkSamples, 0.9), decimals: 2)),
          ("iterations", "\(iterations)"),
        ])
    ]
    guard curlAvailable else {
      figures.append(Figure("login_curl_ms", [("error", "curl_not_installed")]))
      return figures
    }
    // The fair baseline is (b), the sum of curl's own `time_total`: it is the network and
    // server time of the five requests. The wall time (a) also pays for five fork/exec's of
    // curl and its start-up (dynamic linking, TLS/libcurl initialisation), a few milliseconds
    // that dwarf the requests themselves on loopback and that an SDK inside a running service
    // never pays. Note the SDK does more than curl: it verifies the ID token's RS256 signature
    // and claims (issuer, audience, expiry, nonce, at_hash), twice, plus userinfo's `sub`,
    // keeps the pending login and stores the session.
    let timeTotalMedian = median(curlTimeTotal)
    figures.append(
      Figure(
        "login_curl_ms",
        [
          ("wall_median", format(median(curlWall), decimals: 2)),
          ("time_total_median", format(timeTotalMedian, decimals: 2)),
          ("time_total_p90", format(percentile(curlTimeTotal, 0.9), decimals: 2)),
          ("iterations", "\(iterations)"),
        ]))
    let overhead = (sdkMedian - timeTotalMedian) / timeTotalMedian * 100
    figures.append(
      Figure(
        "login_overhead",
        [
          ("pct", format(overhead)), ("goal_pct", "10"),
          ("meets_goal", overhead <= 10 ? "yes" : "no"),
        ]))
    return figures
  }

  private static func describe(_ error: any Error) -> String {
    String(describing: error).replacingOccurrences(of: " ", with: "_").prefix(120).description
  }

  static func median(_ samples: [Double]) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// Nearest-rank percentile (`fraction` in 0...1).
  static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }
}
