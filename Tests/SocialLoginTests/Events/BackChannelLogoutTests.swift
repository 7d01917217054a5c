import Foundation
import SocialLoginCrypto
import SocialLoginTesting
import TestPacing
import Testing

@testable import SocialLogin

@Suite("Back-channel logout", .heavy, .timeLimit(.minutes(10)))
struct BackChannelLogoutTests {
  @Test func aLogoutTokenEndsTheSessionWithItsReasonThroughTheStore() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn("corp", "alice")
    let other = try await fixture.signIn("corp", "bob")
    let response = await fixture.postLogout(try EventFixture.logoutToken())
    #expect(response.status == 200, "\(response.text)")
    #expect(response.headers["Cache-Control"] == "no-store")
    #expect(session.currentState == .signedOut(.backChannelLogout))
    #expect(try await fixture.store.load(session.key) == nil)
    #expect(try await fixture.store.deletionReason(for: session.key) == .backChannelLogout)
    #expect(try await fixture.stillSignedIn(other))
    #expect(fixture.providerEvents.last! == (.backChannelLogout, .applied))
  }

  @Test func theSessionEndsOnAnotherReplicaThroughTheChangeFeed() async throws {
    let fixture = try EventFixture()
    let replica = try fixture.replica()
    let held = try await replica.register(
      credential: Credential(accessToken: "access"),
      identity: Identity(provider: "corp", subject: "alice"))
    #expect(fixture.client.sessionCount == 0, "the receiving replica holds no live session")
    #expect(await fixture.postLogout(try EventFixture.logoutToken()).status == 200)
    try await WaitTimeout.yieldUntil("the other replica ended it", timeout: .seconds(45)) {
      held.currentState == .signedOut(.backChannelLogout)
    }
    #expect(try await fixture.store.load(held.key) == nil)
  }

  @Test func aSessionIDEndsOnlyTheSessionThatRecordedIt() async throws {
    let fixture = try EventFixture()
    let alice = try await fixture.signIn("corp", "alice", sid: "sid-a")
    let bob = try await fixture.signIn("corp", "bob", sid: "sid-b")
    // sub alice with another sid: another OP session of alice's; hers here stays.
    let other = await fixture.postLogout(
      try EventFixture.logoutToken(["sid": "sid-other", "jti": "j-1"]))
    #expect(other.status == 200)
    #expect(try await fixture.stillSignedIn(alice))
    // sid only: the session that recorded it ends, whoever it is.
    let bySID = await fixture.postLogout(
      try EventFixture.logoutToken(["sub": nil, "sid": "sid-b", "jti": "j-2"]))
    #expect(bySID.status == 200)
    #expect(bob.currentState == .signedOut(.backChannelLogout))
    #expect(try await fixture.stillSignedIn(alice))
  }

  @Test func aLogoutForNoSessionIsAcknowledgedAndChangesNothing() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn("corp", "bob")
    let response = await fixture.postLogout(try EventFixture.logoutToken())
    #expect(response.status == 200)
    #expect(try await fixture.stillSignedIn(session))
    #expect(fixture.providerEvents.last! == (.backChannelLogout, .noSession))
  }

  @Test func aReplayedTokenIsRefusedAndEndsNothing() async throws {
    let fixture = try EventFixture()
    let token = try EventFixture.logoutToken()
    #expect(await fixture.postLogout(token).status == 200)
    // Alice signs in again; the captured token must not end her new session.
    let session = try await fixture.signIn("corp", "alice")
    let replay = await fixture.postLogout(token)
    #expect(replay.status == 400)
    #expect(replay.text.contains("invalid_request"))
    #expect(try await fixture.stillSignedIn(session))
  }

  /// Hostile logout tokens and bodies, each refused with its status.
  static func hostile() throws -> [(String, [UInt8], Int)] {
    func form(_ token: String) -> [UInt8] {
      Array(FormEncoding.encode([("logout_token", token)]).utf8)
    }
    let signer = try EventFixture.signer()
    let claims = EventFixture.logoutClaims()
    let noneHeader = Base64URL.encode(Array(#"{"alg":"none","typ":"logout+jwt"}"#.utf8))
    let payload = Base64URL.encode(Array(JSONValue.object(claims).jsonText.utf8))
    let hmacWithClientID = TestTokens.hs256(
      .object(claims), header: ["alg": "HS256", "kid": .string(EventFixture.keyID)],
      key: Array(EventFixture.clientID.utf8))
    let anotherKey = try JWSSigner.rs256(RSAPrivateKey.perProcess, keyID: EventFixture.keyID)
      .signJWT(claims: claims, header: ["typ": "logout+jwt"])
    return [
      ("wrong aud", form(try EventFixture.logoutToken(["aud": "someone-else"])), 400),
      ("wrong iss", form(try EventFixture.logoutToken(["iss": "https://evil.example"])), 400),
      ("no events", form(try EventFixture.logoutToken(["events": nil])), 400),
      ("events an array", form(try EventFixture.logoutToken(["events": ["x"]])), 400),
      (
        "events member not an object",
        form(
          try EventFixture.logoutToken([
            "events": ["http://schemas.openid.net/event/backchannel-logout": "yes"]
          ])), 400
      ),
      (
        "another event", form(try EventFixture.logoutToken(["events": ["urn:other": [:]]])),
        400
      ),
      ("a nonce", form(try EventFixture.logoutToken(["nonce": "n"])), 400),
      (
        "too old",
        form(try EventFixture.logoutToken(["iat": .number(EventFixture.now - 3600), "exp": nil])),
        400
      ),
      (
        "expired", form(try EventFixture.logoutToken(["exp": .number(EventFixture.now - 600)])), 400
      ),
      ("no jti", form(try EventFixture.logoutToken(["jti": nil])), 400),
      ("no iat", form(try EventFixture.logoutToken(["iat": nil])), 400),
      ("no sub and no sid", form(try EventFixture.logoutToken(["sub": nil])), 400),
      ("alg none", form(noneHeader + "." + payload + "."), 400),
      ("another key", form(anotherKey), 400),
      ("HMAC with the client id", form(hmacWithClientID), 400),
      (
        "an ID token's typ",
        form(try signer.signJWT(claims: claims, header: ["typ": "at+jwt"])), 400
      ),
      ("not a JWT", form("not-a-jwt"), 400),
      ("not a form", Array(#"{"logout_token":"x"}"#.utf8), 400),
      ("empty", [], 400),
      (
        "twice",
        Array(
          ("logout_token=" + (try EventFixture.logoutToken()) + "&logout_token=x").utf8), 400
      ),
      ("1 MB", Array(repeating: UInt8(ascii: "a"), count: 1 << 20), 413),
    ]
  }

  @Test func hostileTokensAreRefusedAndChangeNothing() async throws {
    let fixture = try EventFixture()
    let session = try await fixture.signIn("corp", "alice")
    for (name, body, status) in try Self.hostile() {
      let response = await fixture.post("/oidc/backchannel-logout", body)
      #expect(response.status == status, "\(name): \(response.text)")
      #expect(response.text.contains("invalid_request"), "\(name)")
      #expect(try await fixture.stillSignedIn(session), "\(name)")
    }
    #expect(fixture.providerEvents.allSatisfy { $0.1 == .rejected })
    // Refused tokens keep no jti: the genuine token is still accepted after them all.
    #expect(await fixture.postLogout(try EventFixture.logoutToken()).status == 200)
    #expect(session.currentState == .signedOut(.backChannelLogout))
  }

  @Test func withOneOpenIDProviderAnotherIssuerIsStillRefused() async throws {
    let fixture = try EventFixture()
    let corp = try #require(fixture.client.providers["corp"])
    let client = try LoginClient(
      providers: [corp], store: fixture.store, clock: fixture.clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let receiver = ProviderEventReceiver(client: client, seen: fixture.seen)
    let session = try await client.register(
      credential: Credential(accessToken: "at"),
      identity: Identity(provider: "corp", subject: "alice"))
    for changes: [String: JSONValue?] in [["iss": "https://evil.example"], ["iss": nil]] {
      let token = try EventFixture.logoutToken(changes)
      let response = await receiver.handle(
        ProviderEventRequest(
          method: "POST", path: "/oidc/backchannel-logout",
          body: Array(FormEncoding.encode([("logout_token", token)]).utf8)))
      #expect(response.status == 400, "\(changes): \(response.text)")
    }
    #expect(try await fixture.stillSignedIn(session))
  }

  @Test func otherMethodsAndPathsAreNotRoutes() async throws {
    let fixture = try EventFixture()
    let get = await fixture.receiver.handle(
      ProviderEventRequest(method: "GET", path: "/events/oidc/backchannel-logout"))
    #expect(get.status == 405)
    let outside = await fixture.receiver.handle(
      ProviderEventRequest(method: "POST", path: "/oidc/backchannel-logout"))
    #expect(outside.status == 404)
    let unknown = await fixture.post("/nothing", [])
    #expect(unknown.status == 404)
    let largeUnknown = await fixture.post("/evil-label", Array(repeating: 0x61, count: 1 << 20))
    #expect(largeUnknown.status == 404)
    #expect(fixture.providerEvents.isEmpty, "no label an outsider chose")
  }
}
