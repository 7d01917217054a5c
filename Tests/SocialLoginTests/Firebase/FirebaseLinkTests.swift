import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct FirebaseLinkTests {
  func signedIn(_ fixture: FirebaseFixture) async throws -> FirebaseSession {
    fixture.stub.on("POST", FirebaseWire.signInPath, reply: .json(FirebaseWire.signInResponse()))
    fixture.stub.on("POST", FirebaseWire.lookupPath, reply: .json(FirebaseWire.lookupResponse()))
    return try await fixture.firebase.signIn(with: .facebook(accessToken: "fb"))
  }

  @Test func linkingSendsTheUsersIDTokenAndTheSessionTakesTheNewTokens() async throws {
    let fixture = try FirebaseFixture()
    let facebook = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.signInPath,
      reply: .json(FirebaseWire.signInResponse(number: 5, isNewUser: false)))
    fixture.stub.on(
      "POST", FirebaseWire.lookupPath,
      reply: .json(FirebaseWire.lookupResponse(providers: ["facebook.com", "oidc.line"])))

    let linked = try await fixture.firebase.link(
      facebook, with: .oidc("oidc.line", idToken: "line-id-token"))

    let body = try fixture.jsonBody(2)
    #expect(body["idToken"]?.stringValue == FirebaseWire.idToken(number: 1))
    #expect(body["postBody"] == "id_token=line-id-token&providerId=oidc.line")
    #expect(body["returnSecureToken"] == true)
    #expect(linked.user.providerData.map(\.providerID) == ["facebook.com", "oidc.line"])
    #expect(!linked.user.isNewUser)
    #expect(linked.session === facebook.session)
    #expect(try await linked.idToken() == FirebaseWire.idToken(number: 5))
    #expect(try await fixture.store.load(linked.session.key)?.credential.refreshToken == "rt-5")
  }

  @Test func linkingACredentialOfAnotherUserIsCredentialAlreadyInUse() async throws {
    let fixture = try FirebaseFixture()
    let facebook = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.signInPath,
      reply: .json(FirebaseWire.error("FEDERATED_USER_ID_ALREADY_LINKED"), status: 400))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.link(facebook, with: .google(idToken: "g"))
    }
    #expect(error?.code == .credentialAlreadyInUse)
    // The session is untouched.
    #expect(try await facebook.idToken() == FirebaseWire.idToken(number: 1))
  }

  @Test func linkThatAnswersForAnotherUserIsRefused() async throws {
    let fixture = try FirebaseFixture()
    let facebook = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.signInPath,
      reply: .json(FirebaseWire.signInResponse(localID: "someone-else", number: 6)))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.link(facebook, with: .google(idToken: "g"))
    }
    #expect(error?.code == .invalidResponse)
  }

  @Test func unlinkingDeletesTheProviderWithAccountsUpdate() async throws {
    let fixture = try FirebaseFixture()
    let facebook = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.updatePath,
      reply: .json(
        """
        {"kind":"identitytoolkit#SetAccountInfoResponse","localId":"uid-123",
        "email":"ada@example.com","providerUserInfo":[{"providerId":"oidc.line","rawId":"U1"}]}
        """))
    let unlinked = try await fixture.firebase.unlink(.facebook, from: facebook)
    let request = try #require(fixture.stub.requests.last)
    #expect(request.url.path == FirebaseWire.updatePath)
    #expect(try fixture.queryKey(2) == "test-api-key")
    let body = try fixture.jsonBody(2)
    #expect(body["idToken"]?.stringValue == FirebaseWire.idToken(number: 1))
    #expect(body["deleteProvider"] == ["facebook.com"])
    #expect(unlinked.user.providerData.map(\.providerID) == ["oidc.line"])
    let stored = try #require(try await fixture.store.load(facebook.session.key)?.identity)
    #expect(FirebaseUser(identity: stored)?.providerData.map(\.rawID) == ["U1"])
  }

  @Test func unlinkingTakesFirebaseProviderIDs() async throws {
    #expect(FirebaseProviderID.facebook.rawValue == "facebook.com")
    #expect(FirebaseProviderID.twitter.rawValue == "twitter.com")
    #expect(FirebaseProviderID.google.rawValue == "google.com")
    #expect(FirebaseProviderID.oidc("line") == FirebaseProviderID(rawValue: "oidc.line"))
    let fixture = try FirebaseFixture()
    let facebook = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.updatePath,
      reply: .json(
        """
        {"kind":"identitytoolkit#SetAccountInfoResponse","localId":"uid-123",
        "providerUserInfo":[{"providerId":"facebook.com","rawId":"F1"}]}
        """))
    let unlinked = try await fixture.firebase.unlink(.oidc("line"), from: facebook)
    #expect(try fixture.jsonBody(2)["deleteProvider"] == ["oidc.line"])
    #expect(unlinked.user.providerData.map(\.providerID) == ["facebook.com"])
  }

  @Test func currentUserLooksTheUserUp() async throws {
    let fixture = try FirebaseFixture()
    let facebook = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.lookupPath,
      reply: .json(#"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.currentUser(of: facebook)
    }
    #expect(error?.code == .userNotFound)
  }
}
