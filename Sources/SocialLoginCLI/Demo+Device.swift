import Foundation
import SocialLogin
import SocialLoginEmulator

extension Demo {
  /// Step 11: a device login (RFC 8628) with the emulator's OpenID provider: the code is
  /// shown, "the phone" approves it, the client polls and gets the session.
  func deviceFlow(emulator: ProviderEmulator) async throws -> [DemoCommand.Outcome] {
    let say = DemoCommand.say
    say("")
    say("11. Sign in without a browser: try await login.deviceLogin(\"oidc\") { prompt in ... }")
    let oidc = OIDCProvider(
      id: "oidc",
      configuration: .init(
        issuer: emulator.oidcIssuer, clientID: EmulatorApps.oidcClientID,
        clientAuthentication: OAuth2Configuration.ClientAuthentication.none),
      clock: clock)
    let login = try LoginClient(providers: [oidc], store: InMemorySessionStore(), clock: clock)
    let approved = Locked(false)
    let session = try await login.deviceLogin("oidc") { prompt in
      say("   Open \(prompt.verificationURI.absoluteString) and enter \(prompt.userCode)")
      say("   (the demo approves on the emulator, as a phone would; the client polls)")
      approved.withLock { $0 = emulator.approveDeviceLogin(userCode: prompt.userCode) }
    }
    let identity = await session.identity
    let polls = emulator.requests(to: ProviderEmulator.oidcProviderID, endpoint: "token").map(
      \.status)
    say("   signed in as \(identity?.name ?? "?") after \(polls.count) poll(s)")
    return [
      .init(
        step: "deviceLogin(\"oidc\") (RFC 8628)", result: identity?.subject ?? "?",
        ok: approved.withLock { $0 } && identity?.subject != nil)
    ]
  }
}
