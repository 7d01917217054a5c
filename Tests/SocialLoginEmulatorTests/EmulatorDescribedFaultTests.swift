import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: faults on described providers", .timeLimit(.minutes(3)))
struct EmulatorDescribedFaultTests {
  @Test func faultsAnswerInEachProvidersOwnShape() async throws {
    try await ProviderEmulator.run { emulator in
      let microsoft = try DescribedTestClient(emulator, .microsoft)
      let tokens = try await microsoft.exchange(try await microsoft.code())
      let refresh = try #require(tokens.string("refresh_token"))
      emulator.inject(
        EmulatorFault(provider: .microsoft, endpoint: "token", refreshToken: .expired, count: 1))
      let expired = try await microsoft.refresh(refresh)
      #expect(expired.string("error") == "invalid_grant")
      #expect(expired.json?["error_codes"]?.arrayValue?.first?.doubleValue == 70008)
      #expect(expired.string("error_description")?.hasPrefix("AADSTS70008") == true)
      emulator.inject(
        EmulatorFault(provider: .microsoft, endpoint: "token", accountDisabled: true, count: 1))
      let disabled = try await microsoft.refresh(refresh)
      #expect(disabled.json?["error_codes"]?.arrayValue?.first?.doubleValue == 50057)
      emulator.inject(
        EmulatorFault(
          provider: .microsoft, endpoint: "token", status: 429, retryAfterSeconds: 7, count: 1))
      let limited = try await microsoft.refresh(refresh)
      #expect(limited.status == 429)
      #expect(limited.headers["retry-after"] == "7")
      #expect(limited.string("error") == "temporarily_unavailable")
      // The faults spent nothing: the refresh token still works.
      let fine = try await microsoft.refresh(refresh)
      #expect(fine.status == 200, "\(fine.text)")

      let naver = try DescribedTestClient(emulator, .naver)
      let naverTokens = try await naver.exchange(try await naver.code())
      emulator.inject(
        EmulatorFault(provider: .naver, endpoint: "token", refreshToken: .revoked, count: 1))
      let revoked = try await naver.refresh(try #require(naverTokens.string("refresh_token")))
      #expect(revoked.status == 200, "NAVER's errors come with 200: \(revoked.text)")
      #expect(revoked.string("error") == "invalid_grant")
      emulator.inject(
        EmulatorFault(provider: .naver, endpoint: "profile", accountDisabled: true, count: 1))
      let profile = try await naver.call(
        "profile", bearer: try #require(naverTokens.string("access_token")))
      #expect(profile.status == 403)
      #expect(profile.json?["resultcode"]?.stringValue != "00")
      let faults = emulator.requests.filter { $0.fault != nil }.map(\.provider)
      #expect(faults == [.microsoft, .microsoft, .microsoft, .naver, .naver])
    }
  }
}
