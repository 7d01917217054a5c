import Foundation
import SocialLogin
import SocialLoginEmulator

extension Demo {
  /// Step 12: Kakao Login, a provider written as data (``ProviderDescription/kakao``): a
  /// 64-bit user id kept exact, and a refresh that keeps the refresh token Kakao did not
  /// rotate (it rotates only in the token's last month).
  func kakaoFlow(emulator: ProviderEmulator) async throws -> [DemoCommand.Outcome] {
    let say = DemoCommand.say
    say("")
    say("12. Kakao, a provider written as a description: try await login(.kakao)")
    var configuration = try DescribedProviderConfiguration(
      .kakao, clientID: EmulatorApps.kakaoClientID,
      clientSecret: Secret(EmulatorApps.kakaoClientSecret), emulatorHost: emulator.host,
      environment: [:])
    configuration.appID = EmulatorApps.kakaoAppID
    let kakao = DescribedProvider(configuration: configuration, clock: clock)
    let login = try LoginClient(
      providers: [kakao], store: InMemorySessionStore(), clock: clock,
      userAgent: emulator.headlessAgent())
    let session = try await login(.kakao)
    let identity = await session.identity
    say("   signed in as \(identity?.name ?? "?") (Kakao id \(identity?.subject ?? "?"), 64-bit)")
    let before = await session.credential?.refreshToken
    _ = try await session.forceRefresh()
    let after = await session.credential?.refreshToken
    let kept = before != nil && before == after
    say(
      "   refreshed: "
        + (kept
          ? "Kakao sent no new refresh token (only in its last month), so the old one is kept"
          : "the refresh token changed"))
    return [
      .init(
        step: "login(.kakao) + refresh (description)",
        result: kept ? "id \(identity?.subject ?? "?"), RT kept" : "RT not kept",
        ok: identity?.subject != nil && kept)
    ]
  }
}
