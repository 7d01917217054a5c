// The emulator benchmark: full logins through the provider emulator with the real provider
// actors (X, Facebook, LINE and the generic OpenID provider), from 1 and 32 concurrent
// clients, and the wall time of `sociallogin demo` (the binary next to this one).
//
// Options (environment):
//   SOCIALLOGIN_BENCH_EMULATOR_LOGINS  timed logins per provider and client count (default 200)

import Foundation
import SocialLogin
import SocialLoginEmulator

enum EmulatorBench {
  static func run() async -> [Figure] {
    let environment = ProcessInfo.processInfo.environment
    let logins = environment["SOCIALLOGIN_BENCH_EMULATOR_LOGINS"].flatMap { Int($0) } ?? 200
    guard logins > 0 else { return [Figure("emulator", [("error", "bad_logins")])] }
    var figures: [Figure] = []
    do {
      let emulator = try ProviderEmulator()
      emulator.start()
      let x = XProvider(
        configuration: try .init(
          clientID: EmulatorApps.twitterClientID,
          clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host,
          environment: [:]))
      let facebook = FacebookProvider(
        configuration: try .init(
          appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
          emulatorHost: emulator.host, environment: [:]))
      let line = LINEProvider(
        configuration: try .init(
          channelID: EmulatorApps.lineChannelID,
          channelSecret: Secret(EmulatorApps.lineChannelSecret), emulatorHost: emulator.host,
          environment: [:]))
      let oidc = OIDCProvider(
        id: "oidc",
        configuration: .init(
          issuer: emulator.oidcIssuer, clientID: EmulatorApps.oidcClientID,
          clientSecret: Secret(EmulatorApps.oidcClientSecret),
          scopes: ["openid", "profile", "email"]))
      let client = try LoginClient(
        providers: [x, facebook, line, oidc], store: InMemorySessionStore())
      let agent = emulator.headlessAgent()
      // X: authorize → code → token (PKCE, Basic) → /2/users/me. Facebook: dialog → code →
      // access_token → /me. LINE: authorize → code → token → ES256 ID token verified → profile.
      // OpenID: discovery → authorize → code → token → ID token verified (JWKS) → userinfo.
      let providers: [(name: String, id: ProviderID)] = [
        ("twitter", .twitter), ("facebook", .facebook), ("line", .line), ("oidc", "oidc"),
      ]
      for provider in providers {
        for _ in 0..<5 { _ = try await client.login(provider.id, using: agent) }  // warm-up
        for clients in [1, 32] {
          let perClient = max(1, logins / clients)
          let started = ContinuousClock.now
          try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<clients {
              group.addTask {
                for _ in 0..<perClient { _ = try await client.login(provider.id, using: agent) }
              }
            }
            try await group.waitForAll()
          }
          let seconds = (ContinuousClock.now - started).seconds
          let total = perClient * clients
          figures.append(
            Figure(
              "emulator_logins",
              [
                ("provider", provider.name), ("clients", "\(clients)"), ("logins", "\(total)"),
                ("per_second", String(format: "%.1f", Double(total) / seconds)),
                ("ms_per_login", String(format: "%.2f", seconds * 1000 / Double(total))),
              ]))
        }
      }
      await emulator.shutdown()
    } catch {
      figures.append(Figure("emulator_logins", [("error", "\(error)")]))
    }
    figures.append(demoWallTime())
    return figures
  }

  /// Runs `sociallogin demo` from the same build directory and times it.
  static func demoWallTime() -> Figure {
    guard let bench = Bundle.main.executableURL else {
      return Figure("demo_wall_time", [("error", "no_executable_url")])
    }
    let demo = bench.deletingLastPathComponent().appendingPathComponent("sociallogin")
    guard FileManager.default.isExecutableFile(atPath: demo.path) else {
      return Figure("demo_wall_time", [("error", "sociallogin_not_built")])
    }
    let process = Process()
    process.executableURL = demo
    process.arguments = ["demo"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let started = ContinuousClock.now
    do {
      try process.run()
    } catch {
      return Figure("demo_wall_time", [("error", "did_not_start")])
    }
    process.waitUntilExit()
    let seconds = (ContinuousClock.now - started).seconds
    return Figure(
      "demo_wall_time",
      [("seconds", String(format: "%.3f", seconds)), ("exit", "\(process.terminationStatus)")])
  }
}

extension Duration {
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
