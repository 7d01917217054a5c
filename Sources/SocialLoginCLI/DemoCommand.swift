import Foundation
import SocialLogin
import SocialLoginEmulator

/// `sociallogin demo`: the SDK's main features, end to end, against the in-process provider
/// emulator. No accounts, no network; plain text for people on stdout.
enum DemoCommand {
  /// One line of the summary table.
  struct Outcome {
    var step: String
    var result: String
    var ok: Bool
  }

  /// Runs every step and prints the summary table: 0 when every step behaved as documented,
  /// else 1. ``EmulatorCommands/demo`` declares its options for the one parser.
  ///
  /// - Parameter metrics: Whether to end with `# metrics` and the Prometheus exposition of
  ///   the events of every step (a ``MetricsRecorder`` observing the demo's client).
  static func run(metrics: Bool = false) async -> Int32 {
    let started = ContinuousClock.now
    let recorder = metrics ? MetricsRecorder() : nil
    do {
      let outcomes = try await Demo(observer: recorder).run()
      let elapsed = ContinuousClock.now - started
      say("")
      say("Summary")
      say("  " + "step".padding(toLength: 44, withPad: " ", startingAt: 0) + "result")
      for outcome in outcomes {
        say(
          "  " + (outcome.ok ? "ok   " : "FAIL ")
            + outcome.step.padding(toLength: 39, withPad: " ", startingAt: 0) + outcome.result)
      }
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      say("")
      say(String(format: "Demo finished in %.2f s.", seconds))
      if let recorder {
        say("")
        say("# metrics")
        print(recorder.prometheusText(), terminator: "")
        fflush(nil)
      }
      return outcomes.allSatisfy(\.ok) ? 0 : 1
    } catch {
      writeError("sociallogin demo: failed: \(error)\n")
      return 1
    }
  }

  static func say(_ line: String) {
    print(line)
    fflush(nil)
  }
}

/// The demo's steps, in order.
struct Demo {
  let clock = DemoClock()
  /// Where the demo client's events go (`demo --metrics`).
  var observer: (any AuthObserver)?

  func run() async throws -> [DemoCommand.Outcome] {
    let say = DemoCommand.say
    let emulator = try ProviderEmulator(clock: clock)
    emulator.start()
    defer { emulator.close() }
    say("SocialLogin demo: the provider emulator listens on \(emulator.baseURL.absoluteString)")
    say(
      "(Facebook, X, LINE, Apple, Kakao and Firebase Authentication as their real wire protocols; no"
        + " accounts, no network.)")
    say("")

    let x = XProvider(
      configuration: try .init(
        clientID: EmulatorApps.twitterClientID,
        clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host,
        environment: [:]),
      clock: clock)
    let facebook = FacebookProvider(
      configuration: try .init(
        appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
        emulatorHost: emulator.host, environment: [:]),
      clock: clock)
    let line = LINEProvider(
      configuration: try .init(
        channelID: EmulatorApps.lineChannelID,
        channelSecret: Secret(EmulatorApps.lineChannelSecret), emulatorHost: emulator.host,
        environment: [:]),
      clock: clock)
    let firebaseProvider = FirebaseProvider.firebase(
      apiKey: EmulatorApps.firebaseAPIKey, projectID: EmulatorApps.firebaseProjectID,
      emulatorHost: emulator.host, acceptsUnsignedEmulatorTokens: true, clock: clock)
    let store = InMemorySessionStore()
    let login = try LoginClient(
      providers: [x, facebook, line, firebaseProvider], store: store, clock: clock,
      userAgent: emulator.headlessAgent(), observer: observer)
    var outcomes: [DemoCommand.Outcome] = []

    // 1-3: logins.
    var sessions: [ProviderID: SessionActor] = [:]
    for (number, provider) in [(1, ProviderID.twitter), (2, .facebook), (3, .line)] {
      say("\(number). try await login(.\(provider.rawValue))")
      let session = try await login(provider)
      sessions[provider] = session
      let identity = await session.identity
      let credential = await session.credential
      let expiry = credential?.expiresAt.map { Int($0.timeIntervalSince(clock.wallTime)) }
      say(
        "   signed in as \(identity?.name ?? "?") (\(provider.rawValue) id \(identity?.subject ?? "?"))"
      )
      if let email = identity?.email { say("   email \(email)") }
      say(
        "   access token valid for \(expiry.map { "\($0) s" } ?? "ever")"
          + (credential?.refreshToken == nil ? ", no refresh token" : ", with a refresh token"))
      outcomes.append(
        .init(
          step: "login(.\(provider.rawValue))", result: identity?.name ?? "?", ok: identity != nil))
    }
    guard let twitter = sessions[.twitter], let lineSession = sessions[.line],
      let facebookSession = sessions[.facebook]
    else {
      return outcomes
    }

    // 4: the state stream.
    say("")
    say("4. for await state in session.states  (the X session)")
    let recorder = StateRecorder()
    let watcher = Task {
      for await state in twitter.states {
        say("   state: \(describe(state))")
        recorder.append(state)
      }
    }
    try await recorder.wait { $0.count >= 1 }

    // 5: 1,000 concurrent callers after expiry.
    say("")
    say("5. Two hours later, 1,000 concurrent session.freshAccessToken() calls")
    clock.advance(by: 7300)
    emulator.clearRequests()
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<1000 { group.addTask { try await twitter.freshAccessToken() } }
      var seen: Set<String> = []
      for try await token in group { seen.insert(token) }
      return seen
    }
    let refreshes = emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token")
    say("   \(tokens.count) distinct token for 1,000 callers; the emulator's transcript:")
    for record in emulator.requests {
      say(
        "   \(record.method) \(record.path) grant_type=\(record.grantType ?? "-") -> \(record.status)"
      )
    }
    outcomes.append(
      .init(
        step: "1,000 callers after expiry", result: "\(refreshes.count) refresh request",
        ok: refreshes.count == 1 && tokens.count == 1))

    // 6: two copies of one session refresh at the same instant.
    say("")
    say("6. Two copies of the X session refresh at the same instant (a script or an old deploy")
    say("   holding a copy, and not taking the store's refresh lease): X rotates refresh tokens,")
    say("   so only one spend can win")
    let adoption = try await siblingRace(x: x, session: twitter, store: store, emulator: emulator)
    outcomes.append(
      .init(
        step: "stale X refresh token", result: adoption.result,
        ok: adoption.ok && twitter.currentState == .signedIn))

    // 7: 429 → degraded → recovered.
    say("")
    say("7. X rate-limits the token endpoint (429, x-rate-limit-reset in 60 s)")
    clock.advance(by: 7300)
    emulator.inject(
      EmulatorFault(
        provider: .twitter, endpoint: "token", status: 429, rateLimitResetSeconds: 60, count: 1))
    do {
      _ = try await twitter.freshAccessToken()
    } catch let error as AuthError {
      say("   freshAccessToken() threw \(error.code.rawValue) (transient: \(error.isTransient))")
    }
    let degraded = twitter.currentState
    let degradedText = describe(degraded)
    say("   a minute later the session retries:")
    clock.advance(by: 61)
    _ = try await twitter.freshAccessToken()
    let recovered = twitter.currentState
    var wasDegraded = false
    if case .degraded = degraded { wasDegraded = true }
    outcomes.append(
      .init(
        step: "429 -> degraded -> recovered",
        result: "\(degradedText) -> \(describe(recovered))",
        ok: wasDegraded && recovered == .signedIn))

    // 8: a revoked refresh token.
    say("")
    say("8. The user removes the app at LINE: its refresh token is revoked")
    emulator.revokeTokens(provider: .line)
    clock.advance(by: 2_600_000)
    do {
      _ = try await lineSession.freshAccessToken()
    } catch let error as AuthError {
      let answer = (error.underlying as? AuthError)?.oauth ?? error.oauth
      say(
        "   LINE answered \(answer?.error ?? "?")"
          + (answer?.errorDescription.map { ": \($0)" } ?? "")
          + "; freshAccessToken() threw \(error.code.rawValue)")
    }
    let ended = lineSession.currentState
    say("   the LINE session is now \(describe(ended))")
    var signedOut = false
    if case .signedOut = ended { signedOut = true }
    outcomes.append(
      .init(step: "revoked LINE refresh token", result: describe(ended), ok: signedOut))

    // 9: the seed's flow: Facebook -> Firebase.
    outcomes += try await firebaseFlow(
      login: login, facebook: facebookSession, emulator: emulator)

    // 10: Sign in with Apple and an account deletion.
    outcomes += try await appleFlow(emulator: emulator)

    // 11: a device login, for machines without a browser.
    outcomes += try await deviceFlow(emulator: emulator)

    // 12: Kakao, a provider written as a description.
    outcomes += try await kakaoFlow(emulator: emulator)

    watcher.cancel()
    outcomes.insert(
      .init(
        step: "state stream (X session)", result: "\(recorder.count) states seen",
        ok: recorder.count >= 3), at: 3)
    return outcomes
  }

  func describe(_ state: AuthState) -> String {
    switch state {
    case .signedIn: ".signedIn"
    case .degraded(let retryAt):
      ".degraded(retryAt: +\(Int(retryAt.timeIntervalSince(clock.wallTime).rounded())) s)"
    case .signedOut(let reason): ".signedOut(\(reason))"
    }
  }
}

/// The states the demo's watcher saw.
final class StateRecorder: Sendable {
  private let states = Locked([AuthState]())

  func append(_ state: AuthState) { states.withLock { $0.append(state) } }
  var count: Int { states.withLock { $0.count } }

  /// Waits (at most 5 s) until the states seen so far satisfy `condition`.
  func wait(until condition: ([AuthState]) -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(5))
    while !states.withLock({ condition($0) }), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(2))
    }
  }
}
