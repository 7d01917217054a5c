import Foundation
import SocialLogin
import Testing

/// `AuthError.Code`: matched in `catch` and `case` patterns, made only from its members.
@Suite struct AuthErrorCodeTests {
  func failing(_ code: AuthError.Code) throws { throw AuthError(code, "failed") }

  @Test func aCodeMatchesItsErrorInACatchPattern() {
    var caught: String?
    do {
      try failing(.signedOut)
    } catch AuthError.Code.network {
      caught = "network"
    } catch AuthError.Code.signedOut {
      caught = "signedOut"
    } catch {
      caught = "other"
    }
    #expect(caught == "signedOut")
  }

  @Test func aCodeMatchesOnlyAuthErrorsWithIt() {
    let error: any Error = AuthError(.timedOut, "slow")
    switch error {
    case AuthError.Code.network: Issue.record("timed_out is not network")
    case AuthError.Code.timedOut: break
    default: Issue.record("timed_out did not match")
    }
    #expect(!(AuthError.Code.timedOut ~= CancellationError()))
    #expect(AuthError.Code.signedOut.rawValue == "signed_out", "the stable string is kept")
  }
}
