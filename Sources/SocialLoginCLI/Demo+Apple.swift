import Foundation
import SocialLogin
import SocialLoginEmulator

extension Demo {
  /// Step 10: Sign in with Apple (form_post, the first-login name kept), then the account
  /// deletion App Store Review Guideline 5.1.1(v) asks for: revoke, then sign out.
  func appleFlow(emulator: ProviderEmulator) async throws -> [DemoCommand.Outcome] {
    let say = DemoCommand.say
    say("")
    say("10. Sign in with Apple: try await login(.apple)  (response_mode=form_post)")
    let key = emulator.appleKey
    let apple = AppleProvider(
      configuration: try AppleConfiguration(
        clientIDs: key.clientIDs, teamID: key.teamID, keyID: key.keyID,
        privateKeyPEM: Secret(key.privateKeyPEM), emulatorHost: emulator.host, environment: [:]),
      clock: clock)
    let login = try LoginClient(
      providers: [apple], store: InMemorySessionStore(), clock: clock,
      userAgent: emulator.headlessAgent())
    let session = try await login(.apple)
    let identity = await session.identity
    say(
      "   signed in as \(identity?.name ?? "?") (apple id \(identity?.subject ?? "?")),"
        + " email verified: \(identity?.emailVerified.map(String.init) ?? "?")")
    say("   the client secret is an ES256 JWT the SDK signed with the emulator's .p8 key")
    say("   The user deletes their account: try await login.deleteAccount(session.key)")
    emulator.clearRequests()
    try await login.deleteAccount(session.key)
    let revokes = emulator.requests(to: .apple, endpoint: "revoke")
    for record in revokes {
      say("   \(record.method) \(record.path) -> \(record.status)")
    }
    let ended = session.currentState
    say("   the Apple session is now \(describe(ended))")
    return [
      .init(
        step: "login(.apple) (form_post)", result: identity?.name ?? "?",
        ok: identity?.name != nil && identity?.emailVerified == true),
      .init(
        step: "account deletion revokes Apple tokens",
        result: "\(revokes.count) revoke, \(describe(ended))",
        ok: revokes.map(\.status) == [200] && ended == .signedOut(.accountDeleted)),
    ]
  }
}
