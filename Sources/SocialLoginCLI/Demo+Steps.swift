import Foundation
import SocialLogin
import SocialLoginEmulator

/// The demo's longer steps: two copies of one X session racing for its refresh token, and the
/// seed's Facebook → Firebase flow.
extension Demo {
  /// What a step reports to the summary table.
  struct StepResult {
    var result: String
    var ok: Bool
  }

  /// Step 6. Our session's refresh is held at the emulator for a moment; meanwhile another
  /// copy of the session (which does not take the store's refresh lease) spends the same
  /// refresh token first and stores what X rotated it into. X then rejects our spend of the
  /// dead token (§7: `invalid_request`), and the session, instead of signing the user out,
  /// re-reads the store and adopts the sibling's rotated token.
  func siblingRace(
    x: XProvider, session: SessionActor, store: InMemorySessionStore, emulator: ProviderEmulator
  ) async throws -> StepResult {
    let say = DemoCommand.say
    clock.advance(by: 7300)
    emulator.clearRequests()
    guard let copy = await session.credential else {
      return StepResult(result: "no credential", ok: false)
    }
    emulator.inject(
      EmulatorFault(provider: .twitter, endpoint: "token", latencyMilliseconds: 400, count: 1))
    let ours = Task { try await session.freshAccessToken() }
    // The fault is taken when our request reaches the emulator, which then holds it.
    let deadline = ContinuousClock.now.advanced(by: .seconds(5))
    while !emulator.faults.isEmpty, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(1))
    }
    say("   our session's refresh is on its way; the other copy spends the same token first")
    let siblings = try await x.refresh(copy)
    if var record = try await store.load(session.key) {
      record.credential = siblings
      _ = try await store.save(record, expectedVersion: record.version)
    }
    let token: String
    do {
      token = try await ours.value
    } catch {
      say("   our session failed: \(error)")
      return StepResult(result: "failed", ok: false)
    }
    let refreshes = emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token")
    for record in refreshes {
      say("   \(record.method) \(record.path) grant_type=refresh_token -> \(record.status)")
    }
    let rejected = refreshes.contains { $0.status == 400 }
    if rejected {
      say("   X answered invalid_request to our spend: the token was already rotated")
    }
    let adopted = token == siblings.accessToken.revealed
    say(
      "   the session \(adopted ? "adopted the other copy's rotated token" : "did not adopt")"
        + " and is still \(describe(session.currentState))")
    return StepResult(
      result: rejected && adopted ? "rejected, rotated token adopted" : "not shown",
      ok: rejected && adopted && refreshes.count == 2)
  }

  /// Step 9, the seed's flow: the Facebook session → a Firebase session
  /// (`accounts:signInWithIdp`) → its state stream → a refresh through Secure Token → sign-out.
  func firebaseFlow(login: LoginClient, facebook: SessionActor, emulator: ProviderEmulator)
    async throws -> [DemoCommand.Outcome]
  {
    let say = DemoCommand.say
    say("")
    say("9. The seed's flow: try await FirebaseAuth(client: login).signIn(with: facebookSession)")
    let firebase = try FirebaseAuth(client: login)
    emulator.clearRequests()
    let signedIn = try await firebase.signIn(with: facebook)
    let user = signedIn.user
    say(
      "   Firebase user \(user.localID) (\(user.displayName ?? "?")), new user: \(user.isNewUser),"
        + " providers: \(user.providerData.map(\.providerID).joined(separator: ", "))")
    let recorder = StateRecorder()
    let watcher = Task {
      for await state in signedIn.states {
        say("   firebase state: \(describe(state))")
        recorder.append(state)
      }
    }
    defer { watcher.cancel() }
    try await recorder.wait { $0.count >= 1 }
    let first = try await signedIn.idToken()
    let verified = try await firebase.verifyIDToken(first)
    say(
      "   verifyIDToken: user \(verified.userID), signed in with"
        + " \(verified.signInProvider ?? "?") (unsigned: emulator mode only)")

    say("   An hour later the one-hour ID token has expired; idToken() refreshes it:")
    clock.advance(by: 3700)
    let second = try await signedIn.idToken()
    let refreshes = emulator.requests(to: .firebase, endpoint: "securetoken")
    for record in refreshes {
      say("   \(record.method) \(record.path) -> \(record.status)")
    }
    try await signedIn.session.signOut()
    try await recorder.wait { $0.last?.isSignedIn == false }
    let ended = signedIn.session.currentState
    say("   signOut() -> \(describe(ended))")
    return [
      .init(
        step: "Facebook -> Firebase (signInWithIdp)", result: user.localID,
        ok: verified.userID == user.localID
          && user.providerData.contains { $0.providerID == "facebook.com" }),
      .init(
        step: "Firebase ID token refresh", result: "\(refreshes.count) securetoken request",
        ok: refreshes.count == 1 && second != first),
      .init(
        step: "Firebase sign-out", result: describe(ended),
        ok: ended == .signedOut(.userInitiated) && recorder.count >= 2),
    ]
  }
}
