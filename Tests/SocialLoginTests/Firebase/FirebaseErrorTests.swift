import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct FirebaseErrorTests {
  @Test(arguments: [
    (
      "INVALID_IDP_RESPONSE : Invalid Idp Response: access_token is invalid",
      AuthError.Code.invalidIdPResponse, false
    ),
    ("FEDERATED_USER_ID_ALREADY_LINKED", .credentialAlreadyInUse, false),
    ("EMAIL_EXISTS", .emailAlreadyInUse, false),
    ("TOKEN_EXPIRED", .refreshTokenInvalid, false),
    ("USER_DISABLED", .userDisabled, false),
    ("USER_NOT_FOUND", .userNotFound, false),
    ("INVALID_REFRESH_TOKEN", .refreshTokenInvalid, false),
    ("INVALID_API_KEY", .configuration, false),
    ("QUOTA_EXCEEDED : Exceeded quota for verifying passwords.", .serverUnavailable, true),
    ("TOO_MANY_ATTEMPTS_TRY_LATER", .serverUnavailable, true),
    ("SOMETHING_NEW : with detail", .providerError, false),
  ])
  func signInErrorsMapToTypedCodesByPrefix(message: String, code: AuthError.Code, transient: Bool)
    async throws
  {
    let fixture = try FirebaseFixture()
    fixture.stub.on(
      "POST", FirebaseWire.signInPath, reply: .json(FirebaseWire.error(message), status: 400))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.signIn(with: .facebook(accessToken: "fb-secret-token"))
    }
    let prefix = String(message.split(separator: " ").first ?? "")
    #expect(error?.code == code)
    #expect(error?.isTransient == transient)
    #expect(error?.providerCode == prefix)
    #expect(error?.httpStatus == 400)
    #expect(error?.firebaseError?.code == prefix)
    let detail = message.range(of: " : ").map { String(message[$0.upperBound...]) }
    #expect(error?.firebaseError?.detail == detail)
    #expect(error?.message.contains("fb-secret-token") == false)
  }

  @Test func apiKeyRejectedByTheGatewayIsAConfigurationError() async throws {
    let fixture = try FirebaseFixture()
    fixture.stub.on(
      "POST", FirebaseWire.signInPath,
      reply: .json(
        #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}"#,
        status: 400))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.signIn(with: .facebook(accessToken: "fb"))
    }
    #expect(error?.code == .configuration)
    #expect(error?.firebaseError?.status == "INVALID_ARGUMENT")
    #expect(error?.message.contains("test-api-key") == false)
  }

  @Test func needConfirmationWithHTTP200IsAnErrorCarryingTheConflict() async throws {
    let fixture = try FirebaseFixture()
    fixture.stub.on(
      "POST", FirebaseWire.signInPath,
      reply: .json(
        """
        {"kind":"identitytoolkit#VerifyAssertionResponse","providerId":"facebook.com",
        "federatedId":"http://facebook.com/fb-1","email":"ada@example.com","localId":"uid-old",
        "needConfirmation":true,"verifiedProvider":["google.com"],
        "oauthAccessToken":"fb-user-token","oauthExpireIn":5183999}
        """))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.signIn(with: .facebook(accessToken: "fb-user-token"))
    }
    #expect(error?.code == .accountExistsWithDifferentCredential)
    #expect(error?.httpStatus == 200)
    let conflict = try #require(error?.firebaseError?.conflict)
    #expect(conflict.email == "ada@example.com")
    #expect(conflict.localID == "uid-old")
    #expect(conflict.verifiedProviders == ["google.com"])
    #expect(conflict.credential?.firebaseCredential == .facebook(accessToken: "fb-user-token"))
    #expect(error?.message.contains("fb-user-token") == false)
    #expect(fixture.client.sessionCount == 0)
  }

  @Test func errorMessageWithHTTP200CarriesTheIdPCredentialToLinkLater() async throws {
    let fixture = try FirebaseFixture()
    fixture.stub.on(
      "POST", FirebaseWire.signInPath,
      reply: .json(
        """
        {"kind":"identitytoolkit#VerifyAssertionResponse","providerId":"twitter.com",
        "errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED","email":"ada@example.com",
        "oauthAccessToken":"tw-token","oauthTokenSecret":"tw-secret"}
        """))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.signIn(with: .twitter(token: "tw-token", secret: "tw-secret"))
    }
    #expect(error?.code == .credentialAlreadyInUse)
    #expect(error?.httpStatus == 200)
    #expect(
      error?.firebaseError?.conflict?.credential?.firebaseCredential
        == .twitter(token: "tw-token", secret: "tw-secret"))
    #expect(error?.firebaseError?.conflict?.email == "ada@example.com")
  }

  @Test func emailExistsWithHTTP200IsEmailAlreadyInUse() async throws {
    let fixture = try FirebaseFixture()
    fixture.stub.on(
      "POST", FirebaseWire.signInPath,
      reply: .json(
        #"{"providerId":"facebook.com","errorMessage":"EMAIL_EXISTS","email":"a@b.c","oauthAccessToken":"t"}"#
      ))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.signIn(with: .facebook(accessToken: "t"))
    }
    #expect(error?.code == .emailAlreadyInUse)
    #expect(error?.firebaseError?.conflict?.email == "a@b.c")
  }

  @Test(arguments: [
    ("<html><body>502 Bad Gateway</body></html>", 502, AuthError.Code.serverUnavailable),
    ("<html><body>Forbidden</body></html>", 403, .invalidResponse),
    ("", 400, .invalidResponse),
    (#"{"error":{"code":400,"mess"#, 400, .invalidResponse),
    (#"{"localId":"uid-123","idToken":"#, 200, .invalidResponse),
    (#"{"localId":"uid-123"}"#, 200, .invalidResponse),
  ])
  func bodiesThatAreNotFirebaseAnswersAreNeverDefinitive(
    body: String, status: Int, code: AuthError.Code
  )
    async throws
  {
    let fixture = try FirebaseFixture()
    fixture.stub.on("POST", FirebaseWire.signInPath, reply: .status(status, body: body))
    let error = await #expect(throws: AuthError.self) {
      _ = try await fixture.firebase.signIn(with: .facebook(accessToken: "fb"))
    }
    #expect(error?.code == code)
    #expect(error?.firebaseError == nil)
    #expect(error?.signOutReason == nil)
  }

  @Test func firebaseMessagesSplitIntoCodeAndDetail() {
    let plain = FirebaseError(message: "TOKEN_EXPIRED", httpStatus: 400)
    #expect(plain.code == "TOKEN_EXPIRED" && plain.detail == nil)
    let detailed = FirebaseError(
      message: "INVALID_IDP_RESPONSE : Unable to parse id_token", httpStatus: 400)
    #expect(detailed.code == "INVALID_IDP_RESPONSE")
    #expect(detailed.detail == "Unable to parse id_token")
    let tight = FirebaseError(message: "TENANT_ID_MISMATCH: wrong tenant", httpStatus: 400)
    #expect(tight.code == "TENANT_ID_MISMATCH" && tight.detail == "wrong tenant")
  }
}
