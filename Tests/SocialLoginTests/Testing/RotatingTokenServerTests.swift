import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// The rotating token server's refresh rules: single use, reuse detection revoking the family,
/// the reuse grace, and the counters the chaos bench reports (a replay after delivery is a
/// client bug, an undelivered one the inherent window); hostile requests change nothing.
@Suite(.timeLimit(.minutes(1))) struct RotatingTokenServerTests {
  struct Answer {
    var status: Int
    var body: String
    /// The refresh token issued, for a `200`.
    var refreshToken: String? {
      guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
      else { return nil }
      return object["refresh_token"] as? String
    }
    var isInvalidGrant: Bool { status == 400 && body.contains("invalid_grant") }
  }

  func refresh(_ server: RotatingTokenServer, _ token: String) async throws -> Answer {
    try await post(
      server, body: "grant_type=refresh_token&refresh_token=\(token)&client_id=replica-client")
  }

  func post(
    _ server: RotatingTokenServer, method: String = "POST", path: String = "/token",
    body: String, contentType: String = "application/x-www-form-urlencoded"
  ) async throws -> Answer {
    var url = server.tokenEndpoint
    if path != "/token" { url = url.deletingLastPathComponent().appendingPathComponent(path) }
    let request = TransportRequest(
      method: method, url: url, headers: ["Content-Type": contentType],
      body: method == "GET" ? nil : Data(body.utf8), timeout: .seconds(20))
    let response = try await LoopbackTransport().send(request)
    return Answer(status: response.status, body: String(decoding: response.body, as: UTF8.self))
  }

  @Test func byDefaultASpentTokenIsRefusedCountedAndTheCurrentOneStaysValid() async throws {
    let server = try RotatingTokenServer()
    defer { server.close() }
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-1")
    #expect(try await refresh(server, "rt-0").isInvalidGrant)
    #expect(server.replaysOutsideGrace == 1)
    #expect(server.spentTwiceUndelivered == 1, "rt-1 was never presented")
    #expect(server.spentTwiceAfterDelivery == 0)
    #expect(!server.familyRevoked)
    #expect(try await refresh(server, "rt-1").refreshToken == "rt-2")
    #expect(server.spent == 2)
  }

  @Test func reuseDetectionRevokesTheWholeFamilyIncludingTheCurrentToken() async throws {
    let server = try RotatingTokenServer(reuseDetection: true)
    defer { server.close() }
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-1")
    #expect(try await refresh(server, "rt-0").isInvalidGrant)
    #expect(server.familyRevoked)
    #expect(server.familiesRevoked == 1)
    #expect(try await refresh(server, "rt-1").isInvalidGrant, "the current token died too")
    #expect(try await refresh(server, "rt-0").isInvalidGrant)
    #expect(server.replaysOutsideGrace == 1, "replays of a revoked family are not counted again")
    #expect(server.spentTwiceUndelivered == 1)
    #expect(server.spent == 1)
  }

  @Test func aReplayAfterItsSuccessorWasUsedIsSpentTwiceAfterDelivery() async throws {
    let server = try RotatingTokenServer(reuseDetection: true)
    defer { server.close() }
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-1")
    #expect(try await refresh(server, "rt-1").refreshToken == "rt-2")
    // rt-0's answer (rt-1) reached a client that used it: replaying rt-0 is a stale record.
    #expect(try await refresh(server, "rt-0").isInvalidGrant)
    #expect(server.spentTwiceAfterDelivery == 1)
    #expect(server.spentTwiceUndelivered == 0)
    #expect(server.replaysOutsideGrace == 1)
  }

  @Test func withinTheGraceASpentTokenIsHonouredWithANewGeneration() async throws {
    let server = try RotatingTokenServer(reuseDetection: true, reuseGrace: .seconds(3600))
    defer { server.close() }
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-1")
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-2")
    #expect(server.replaysWithinGrace == 1)
    #expect(server.replaysOutsideGrace == 0)
    #expect(!server.familyRevoked)
    #expect(server.currentRefreshToken == "rt-2")
    #expect(try await refresh(server, "rt-2").refreshToken == "rt-3")
    #expect(server.spent == 2, "a replay within the grace is not a first spend")
  }

  @Test func outsideTheGraceASpentTokenRevokesTheFamily() async throws {
    // A zero grace: any replay comes after it ended (no timing is asserted).
    let server = try RotatingTokenServer(reuseDetection: true, reuseGrace: .zero)
    defer { server.close() }
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-1")
    #expect(try await refresh(server, "rt-0").isInvalidGrant)
    #expect(server.replaysWithinGrace == 0)
    #expect(server.replaysOutsideGrace == 1)
    #expect(server.familyRevoked)
  }

  @Test func hostileTokensAreRefusedWithoutCountingAsReplaysOrRevoking() async throws {
    let server = try RotatingTokenServer(reuseDetection: true)
    defer { server.close() }
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-1")
    for token in [
      "rt-99", "rt-", "rt-abc", "rt--1", "rt-+0", "rt-%D9%A3", "rt-1e3", "RT-0", "xyz", "",
      "rt-99999999999999999999999", "rt-0%00", "at-0",
    ] {
      #expect(try await refresh(server, token).isInvalidGrant, "\(token)")
    }
    #expect(server.replaysOutsideGrace == 0)
    #expect(server.replaysWithinGrace == 0)
    #expect(!server.familyRevoked)
    #expect(try await refresh(server, "rt-1").refreshToken == "rt-2")
  }

  @Test func garbageRequestsAreInvalidRequestsAndChangeNothing() async throws {
    let server = try RotatingTokenServer(reuseDetection: true)
    defer { server.close() }
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-1")
    let garbage: [(method: String, path: String, body: String, type: String)] = [
      ("GET", "/token", "", "application/x-www-form-urlencoded"),
      (
        "POST", "/other", "grant_type=refresh_token&refresh_token=rt-0",
        "application/x-www-form-urlencoded"
      ),
      ("POST", "/token", "refresh_token=rt-0", "application/x-www-form-urlencoded"),
      (
        "POST", "/token", "grant_type=password&refresh_token=rt-0",
        "application/x-www-form-urlencoded"
      ),
      ("POST", "/token", "grant_type=refresh_token", "application/x-www-form-urlencoded"),
      (
        "POST", "/token", #"{"grant_type":"refresh_token","refresh_token":"rt-0"}"#,
        "application/json"
      ),
      ("POST", "/token", "%%%&&&===", "application/x-www-form-urlencoded"),
    ]
    for request in garbage {
      let answer = try await post(
        server, method: request.method, path: request.path, body: request.body,
        contentType: request.type)
      #expect(answer.status >= 400 && answer.status < 500, "\(request)")
      #expect(answer.refreshToken == nil)
    }
    #expect(server.replaysOutsideGrace == 0)
    #expect(!server.familyRevoked)
    #expect(server.spent == 1)
    #expect(try await refresh(server, "rt-1").refreshToken == "rt-2")
  }

  @Test func aNewFamilyStartsAfterARevocationAndOldTokensStayDeadUncounted() async throws {
    let server = try RotatingTokenServer(reuseDetection: true)
    defer { server.close() }
    #expect(try await refresh(server, "rt-0").refreshToken == "rt-1")
    #expect(try await refresh(server, "rt-0").isInvalidGrant)
    let first = server.startNewFamily()
    #expect(!server.familyRevoked)
    #expect(server.currentRefreshToken == first)
    #expect(try await refresh(server, "rt-1").isInvalidGrant, "the old family's current token")
    #expect(try await refresh(server, "rt-0").isInvalidGrant)
    #expect(server.replaysOutsideGrace == 1, "old families' tokens are not replays")
    #expect(!server.familyRevoked)
    let next = try await refresh(server, first).refreshToken
    #expect(next != nil && next != first)
    #expect(server.familiesRevoked == 1)
  }

  @Test func aHeldSpendStillRotatesOnceAndTheReplayIsUndelivered() async throws {
    let server = try RotatingTokenServer(reuseDetection: true)
    defer { server.close() }
    server.holdNextRefresh(spendFirst: true)
    let held = Task { try await refresh(server, "rt-0") }
    let deadline = ContinuousClock.now + .seconds(20)
    while server.held == 0, ContinuousClock.now < deadline { await Task.yield() }
    #expect(server.held == 1)
    server.releaseHeld()
    #expect(try await held.value.refreshToken == "rt-1")
    #expect(try await refresh(server, "rt-0").isInvalidGrant)
    #expect(server.spentTwiceUndelivered == 1)
  }
}
