import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: Kakao's unlink webhook", .timeLimit(.minutes(3)))
struct EmulatorKakaoUnlinkEventTests {
  /// What the webhook target received.
  struct Received: Sendable {
    var method = ""
    var authorization: String?
    var contentType: String?
    var body = ""
  }

  @Test func theWebhookCarriesTheAdminKeyAndTheUserAndEndsTheUsersKakaoTokens() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .kakao)
      let tokens = try await client.exchange(try await client.code())
      let access = try #require(tokens.string("access_token"))
      let received = Locked(Received())
      let server = try LoopbackServer()
      let task = Task {
        try await server.run { request in
          received.withLock {
            $0 = Received(
              method: request.method, authorization: request.headers["Authorization"],
              contentType: request.headers["Content-Type"],
              body: String(decoding: request.body, as: UTF8.self))
          }
          return HTTPResponse(status: 200)
        }
      }
      defer {
        server.close()
        task.cancel()
      }
      let answer = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/events/send"),
        #"{"provider":"kakao","kind":"account-delete","url":"\#(server.baseURL)/kakao/unlink"}"#)
      #expect(answer.status == 200, "\(answer.text)")
      #expect(answer.json?["status"]?.doubleValue == 200)
      let got = received.withLock { $0 }
      #expect(got.method == "POST")
      #expect(got.authorization == "KakaoAK " + EmulatorApps.kakaoAdminKey)
      #expect(got.contentType?.hasPrefix("application/x-www-form-urlencoded") == true)
      let fields = URLComponents(string: "?" + got.body)?.queryItems ?? []
      #expect(
        fields.first { $0.name == "user_id" }?.value == EmulatedUser.alice.subject(at: .kakao))
      #expect(fields.first { $0.name == "app_id" }?.value == EmulatorApps.kakaoAppID)
      #expect(fields.first { $0.name == "referrer_type" }?.value == "ACCOUNT_DELETE")
      let after = try await client.call("userinfo", bearer: access)
      #expect(after.status == 401, "the unlinked user's tokens end: \(after.text)")
    }
  }

  @Test func theSDKsReceiverAcceptsItOnlyWithTheAppsAdminKey() async throws {
    try await ProviderEmulator.run { emulator in
      let oidc = OIDCProvider(
        id: "emulator-oidc",
        configuration: .init(
          issuer: emulator.oidcIssuer, clientID: EmulatorApps.oidcClientID,
          clientSecret: Secret(EmulatorApps.oidcClientSecret)),
        transport: EmulatedProviders.transport)
      let login = try LoginClient(providers: [oidc], store: InMemorySessionStore())
      for (key, status) in [(EmulatorApps.kakaoAdminKey, 200.0), ("another-apps-key", 401.0)] {
        let receiver = ProviderEventReceiver(
          client: login, seen: InMemoryNonceStore(),
          configuration: .init(
            prefix: "/events",
            kakao: .init(adminKey: Secret(key), appID: EmulatorApps.kakaoAppID)))
        try await EmulatorEventsTests.serving(receiver) { base in
          let answer = try await RawHTTP.json(
            "POST", emulator.at("/_emulator/events/send"),
            #"{"provider":"kakao","kind":"unlink","url":"\#(base)/kakao/unlink"}"#)
          #expect(answer.json?["status"]?.doubleValue == status, "\(answer.text)")
        }
      }
    }
  }
}
