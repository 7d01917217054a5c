import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: Kakao and NAVER as their descriptions and dialects say", .timeLimit(.minutes(3)))
struct EmulatorDescribedKakaoNAVERTests {
  @Test func kakaoIdsExceed2To53AndReachTheWireDigitForDigit() async throws {
    try await ProviderEmulator.run(clock: ManualClock()) { emulator in
      let client = try DescribedTestClient(emulator, .kakao)
      let tokens = try await client.exchange(try await client.code())
      let access = try #require(tokens.string("access_token"), "\(tokens.text)")
      #expect(tokens.string("token_type") == "bearer")
      #expect(tokens.json?["refresh_token_expires_in"]?.doubleValue == 5_183_999)
      for user in EmulatedUser.defaults {
        let id = try #require(UInt64(user.subject(at: .kakao)))
        #expect(id > 1 << 53)
        #expect(UInt64(exactly: Double(id)) != id, "a Double cannot hold \(id)")
      }
      let subject = EmulatedUser.alice.subject(at: .kakao)
      let me = try await client.call("userinfo", bearer: access)
      #expect(me.text.contains("\"id\":\(subject),"), "\(me.text)")
      #expect(me.json?["kakao_account"]?["email"]?.stringValue == "alice@example.test")
      #expect(me.json?["kakao_account"]?["is_email_verified"]?.boolValue == true)
      #expect(me.json?["kakao_account"]?["profile"]?["nickname"]?.stringValue == "Alice Example")
      let info = try await client.call("tokeninfo", bearer: access)
      #expect(info.status == 200)
      #expect(info.text.contains("\"id\":\(subject)"), "\(info.text)")
      #expect(info.text.contains("\"app_id\":\(EmulatorApps.kakaoAppID)"), "\(info.text)")
      #expect(info.json?["expires_in"]?.doubleValue == 21_599)
      let bad = try await client.call("userinfo", bearer: "kakao-at-nothing")
      #expect(bad.status == 401)
      #expect(bad.text.contains("\"code\":-401"), "\(bad.text)")
      #expect(bad.headers["www-authenticate"]?.contains("invalid_token") == true)
    }
  }

  @Test func kakaoRotatesTheRefreshTokenOnlyInItsLastMonth() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .kakao)
      let tokens = try await client.exchange(try await client.code())
      let first = try #require(tokens.string("refresh_token"))
      let early = try await client.refresh(first)
      #expect(early.status == 200)
      #expect(early.string("refresh_token") == nil, "\(early.text)")
      #expect(early.json?["refresh_token_expires_in"] == nil)
      // 31 days on, the token has less than a month left: a new one comes, the old one dies.
      emulator.advanceClock(by: 31 * 86_400)
      let late = try await client.refresh(first)
      let second = try #require(late.string("refresh_token"), "\(late.text)")
      #expect(second != first)
      #expect(late.json?["refresh_token_expires_in"]?.doubleValue == 5_183_999)
      let dead = try await client.refresh(first)
      #expect(dead.status == 400)
      #expect(dead.string("error") == "invalid_grant")
      #expect(dead.string("error_code") == "KOE322", "\(dead.text)")
      // The new one is fresh again: it is kept on the next refresh.
      let kept = try await client.refresh(second)
      #expect(kept.status == 200 && kept.string("refresh_token") == nil, "\(kept.text)")
    }
  }

  @Test func kakaoRefusesAWrongSecretAndAnInjectedRevocationInItsOwnCodes() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .kakao)
      let wrong = try await client.token(
        [("grant_type", "refresh_token"), ("refresh_token", "x")], secret: "wrong")
      #expect(wrong.status == 401)
      #expect(wrong.string("error_code") == "KOE010", "\(wrong.text)")
      let basic = try await client.token(
        [("grant_type", "refresh_token"), ("refresh_token", "x")], basic: true)
      #expect(basic.status == 401, "client_secret_post only: \(basic.text)")
      let tokens = try await client.exchange(try await client.code())
      let refresh = try #require(tokens.string("refresh_token"))
      emulator.inject(EmulatorFault(provider: .kakao, endpoint: "token", refreshToken: .revoked))
      let revoked = try await client.refresh(refresh)
      #expect(revoked.string("error_code") == "KOE322", "\(revoked.text)")
      let record = try #require(
        emulator.requests(to: .kakao, endpoint: "token", grantType: "refresh_token").last)
      #expect(record.fault == "refresh_token=revoked")
      #expect(record.form["refresh_token"] == "<redacted>")
      #expect(record.form["client_secret"] == "<redacted>")
      emulator.clearFaults()
      emulator.inject(EmulatorFault(provider: .kakao, endpoint: "userinfo", status: 503, count: 1))
      let unavailable = try await client.call(
        "userinfo", bearer: try #require(tokens.string("access_token")))
      #expect(unavailable.status == 503)
      #expect(unavailable.headers["retry-after"] == "30")
      #expect(unavailable.text.contains("\"code\":"), "\(unavailable.text)")
    }
  }

  @Test func naverWritesExpiresInAsAStringAndErrorsInsideAnswersWithStatus200() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .naver)
      let code = try await client.code()
      let tokens = try await client.exchange(code)
      #expect(tokens.status == 200)
      #expect(tokens.text.contains("\"expires_in\":\"3600\""), "\(tokens.text)")
      let access = try #require(tokens.string("access_token"))
      let refresh = try #require(tokens.string("refresh_token"))
      let reused = try await client.exchange(code)
      #expect(reused.status == 200, "NAVER answers errors with 200: \(reused.text)")
      #expect(reused.string("error") == "invalid_request")
      #expect(reused.string("access_token") == nil)
      let wrong = try await client.token(
        [("grant_type", "refresh_token"), ("refresh_token", refresh)], secret: "wrong")
      #expect(wrong.status == 200)
      #expect(wrong.string("error") == "invalid_client")
      // The reused code revoked the grant, as RFC 6749 §4.1.2 allows: log in again.
      let fresh = try await client.exchange(try await client.code())
      let profile = try await client.call(
        "profile", bearer: try #require(fresh.string("access_token")))
      #expect(profile.json?["resultcode"]?.stringValue == "00")
      #expect(profile.json?["message"]?.stringValue == "success")
      #expect(
        profile.json?["response"]?["id"]?.stringValue == EmulatedUser.alice.subject(at: .naver))
      #expect(profile.json?["response"]?["email"]?.stringValue == "alice@example.test")
      let dead = try await client.call("profile", bearer: access)
      #expect(dead.status == 401)
      #expect(dead.json?["resultcode"]?.stringValue == "024")
      // grant_type=delete says "success" even for a dead token.
      let deleted = try await client.token([
        ("grant_type", "delete"), ("access_token", "naver-at-nothing"),
        ("service_provider", "NAVER"),
      ])
      #expect(deleted.status == 200)
      #expect(deleted.string("result") == "success")
    }
  }

  @Test func naverRequiresState() async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, .naver)
      let redirect = try await client.authorize(
        client.authorizeQuery { $0.removeAll { $0.0 == "state" } })
      #expect(redirect["error"] == "invalid_request")
      #expect(redirect["code"] == nil)
    }
  }
}
