import Foundation
import Testing

@testable import SocialLogin

/// ``SignOutReason/appDeauthorized``: what a provider's push (Facebook deauthorize, Kakao
/// unlink) ends a session with, while records and tombstones stored with ``appRemoved`` keep
/// decoding as that.
@Suite("Provider events: the appDeauthorized reason")
struct AppDeauthorizedReasonTests {
  @Test func itSurvivesACodableRoundTripAndHasItsOwnNames() throws {
    let data = try JSONEncoder().encode(SignOutReason.appDeauthorized)
    #expect(try JSONDecoder().decode(SignOutReason.self, from: data) == .appDeauthorized)
    #expect(SignOutReason.appDeauthorized.label == "app_deauthorized")
    #expect(SignOutReason.appDeauthorized.description != SignOutReason.appRemoved.description)
    let state = try JSONEncoder().encode(AuthState.signedOut(.appDeauthorized))
    #expect(try JSONDecoder().decode(AuthState.self, from: state) == .signedOut(.appDeauthorized))
  }

  @Test func aStoredAppRemovedStillDecodesAsAppRemoved() throws {
    // The encoding every earlier version wrote.
    let stored = Data(#"{"appRemoved":{}}"#.utf8)
    #expect(try JSONDecoder().decode(SignOutReason.self, from: stored) == .appRemoved)
    let written = try JSONEncoder().encode(SignOutReason.appRemoved)
    #expect(String(decoding: written, as: UTF8.self) == #"{"appRemoved":{}}"#)
  }
}
