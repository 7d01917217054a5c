import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: providers push their events to a ProviderEventReceiver", .timeLimit(.minutes(3)))
struct EmulatorEventsTests {
  /// Serves `receiver` on a loopback server for the time of `body`.
  static func serving(
    _ receiver: ProviderEventReceiver, _ body: (String) async throws -> Void
  ) async throws {
    let server = try LoopbackServer()
    let task = Task {
      try await server.run { request in
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name] = field.value }
        let answer = await receiver.handle(
          ProviderEventRequest(
            method: request.method, path: request.target, headers: headers, body: request.body))
        return HTTPResponse(
          status: answer.status,
          headers: HTTPHeaders(answer.headers.map { .init(name: $0, value: $1) }),
          body: answer.body)
      }
    }
    defer {
      server.close()
      task.cancel()
    }
    try await body(server.baseURL + "/events")
  }

  @Test(arguments: [
    (
      "oidc", "backchannel-logout", ProviderEmulator.oidcProviderID,
      SignOutReason.backChannelLogout, 200
    ),
    ("google", "sessions-revoked", .google, .providerSessionsRevoked, 202),
    ("google", "tokens-revoked", .google, .providerTokensRevoked, 202),
    ("google", "account-disabled", .google, .accountDisabled, 202),
    ("google", "account-purged", .google, .accountDeleted, 202),
    ("facebook", "deauthorize", .facebook, .appDeauthorized, 200),
    ("facebook", "data-deletion", .facebook, .dataDeletionRequested, 200),
    ("apple", "consent-revoked", .apple, .consentRevoked, 200),
    ("apple", "account-delete", .apple, .accountDeleted, 200),
    ("kakao", "ssf-user-unlinked", .kakao, .appDeauthorized, 202),
    ("kakao", "ssf-tokens-revoked", .kakao, .providerTokensRevoked, 202),
    ("kakao", "ssf-sessions-revoked", .kakao, .providerSessionsRevoked, 202),
    ("kakao", "ssf-account-disabled", .kakao, .accountDisabled, 202),
  ])
  func anEventFromTheEmulatorEndsTheSession(
    provider: String, kind: String, id: ProviderID, reason: SignOutReason, status: Int
  ) async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let client = try LoginClient(
        providers: [
          OIDCProvider(
            id: ProviderEmulator.oidcProviderID,
            configuration: .init(
              issuer: emulator.oidcIssuer, clientID: EmulatorApps.oidcClientID,
              clientSecret: Secret(EmulatorApps.oidcClientSecret)),
            transport: EmulatedProviders.transport, clock: clock),
          try EmulatedProviders.google(emulator, clock: clock),
          try EmulatedProviders.facebook(emulator, clock: clock),
          try EmulatedProviders.apple(emulator, clock: clock),
          try Self.kakao(emulator, clock: clock),
        ],
        store: InMemorySessionStore(), clock: clock, policy: RefreshPolicy(proactiveMargin: nil))
      let session = try await client.login(id, using: emulator.headlessAgent())
      let receiver = ProviderEventReceiver(
        client: client, seen: InMemoryNonceStore(clock: clock),
        configuration: .init(prefix: "/events"))
      try await Self.serving(receiver) { base in
        let route =
          switch provider {
          case "oidc": "/oidc/backchannel-logout"
          case "google": "/google/risc"
          case "apple": "/apple/notifications"
          case "kakao": "/kakao/ssf"
          default: "/facebook/" + kind
          }
        let answer = try await RawHTTP.json(
          "POST", emulator.at("/_emulator/events/send"),
          #"{"provider":"\#(provider)","kind":"\#(kind)","url":"\#(base + route)"}"#)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json?["status"]?.doubleValue == Double(status), "\(answer.text)")
        #expect(session.currentState == .signedOut(reason))
        #expect(try await client.store.load(session.key) == nil)
      }
    }
  }

  /// Kakao on the emulator: the SDK's described provider with the emulator's default app.
  static func kakao(_ emulator: ProviderEmulator, clock: any AuthClock) throws
    -> DescribedProvider
  {
    let app = try #require(EmulatorApps.describedApp(for: .kakao))
    let configuration = try DescribedProviderConfiguration(
      .kakao, clientID: app.clientID, clientSecret: Secret(app.clientSecret),
      emulatorHost: emulator.host, environment: [:])
    return DescribedProvider(
      configuration: configuration, transport: EmulatedProviders.transport, clock: clock)
  }

  @Test func theSecurityEventConfigurationsNameTheIssuerTheirEventsCarry() async throws {
    try await ProviderEmulator.run { emulator in
      let google = try EmulatedProviders.google(emulator, clock: SystemAuthClock())
      let risc = try await RawHTTP.send(
        "GET", google.configuration.riscConfigurationEndpoint)
      #expect(risc.json?["issuer"]?.stringValue == "https://accounts.google.com/", "\(risc.text)")
      let keys = try #require(risc.json?["jwks_uri"]?.stringValue.flatMap(URL.init(string:)))
      #expect(try await RawHTTP.send("GET", keys).status == 200)
      let kakao = try Self.kakao(emulator, clock: SystemAuthClock())
      let sse = try await RawHTTP.send(
        "GET", try #require(kakao.configuration.url("sse-configuration")))
      #expect(sse.json?["issuer"]?.stringValue == "https://kauth.kakao.com", "\(sse.text)")
      #expect(
        sse.json?["jwks_uri"]?.stringValue?.hasPrefix(emulator.baseURL.absoluteString) == true)
    }
  }

  @Test func theEmulatorRefusesUnknownEventsAndNonLoopbackTargets() async throws {
    try await ProviderEmulator.run { emulator in
      let send = emulator.at("/_emulator/events/send")
      let kakao = try await RawHTTP.json(
        "POST", send, #"{"provider":"kakao","kind":"nothing","url":"http://127.0.0.1:9/x"}"#)
      #expect(kakao.status == 400)
      let unknown = try await RawHTTP.json(
        "POST", send, #"{"provider":"google","kind":"nothing","url":"http://127.0.0.1:9/x"}"#)
      #expect(unknown.status == 400)
      let outside = try await RawHTTP.json(
        "POST", send,
        #"{"provider":"oidc","kind":"backchannel-logout","url":"http://example.com/x"}"#)
      #expect(outside.status == 400)
    }
  }
}
