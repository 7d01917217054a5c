import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// Firebase `google.com` credentials through the emulator: a Google session, an app's ID
/// token, an access token alone.
@Suite("Emulator: Firebase with Google credentials", .timeLimit(.minutes(3)))
struct EmulatedFirebaseGoogleTests {
  @Test func googleSessionsIDTokensAndAccessTokensSignInToOneAccount() async throws {
    try await ProviderEmulator.run { emulator in
      let google = try EmulatedProviders.google(emulator, clock: SystemAuthClock())
      let client = try LoginClient(
        providers: [
          google,
          .firebase(
            apiKey: EmulatorApps.firebaseAPIKey, projectID: EmulatorApps.firebaseProjectID,
            emulatorHost: emulator.host),
        ],
        store: InMemorySessionStore(), policy: RefreshPolicy(proactiveMargin: nil))
      let firebase = try FirebaseAuth(client: client)
      let session = try await client.login(.google, using: emulator.headlessAgent())
      let signedIn = try await firebase.signIn(with: session)
      let user = signedIn.user
      #expect(user.providerData.map(\.providerID) == ["google.com"])
      #expect(user.providerData.first?.rawID == EmulatedUser.alice.subject(at: .google))
      #expect(user.email == EmulatedUser.alice.email)
      #expect(user.emailVerified == true)

      // The access token alone.
      let accessToken = try #require(await session.credential?.accessToken)
      let byAccessToken = try await firebase.signIn(with: .googleAccessToken(accessToken))
      #expect(byAccessToken.user.localID == user.localID)
      #expect(FirebaseCredential.googleAccessToken(accessToken).providerID == "google.com")

      // The ID token an Android app obtained for this server.
      let appToken = try await emulator.googleIDToken()
      let byIDToken = try await firebase.signIn(with: .google(idToken: Secret(appToken)))
      #expect(byIDToken.user.localID == user.localID)

      // Another project's token, and a token Google never issued.
      let foreign = try await emulator.googleIDToken(
        audience: "999-other.apps.googleusercontent.com",
        authorizedParty: "999-other.apps.googleusercontent.com")
      let refused = await #expect(throws: AuthError.self) {
        _ = try await firebase.signIn(with: .google(idToken: Secret(foreign)))
      }
      #expect(refused?.code == .invalidIdPResponse)
      let unknown = await #expect(throws: AuthError.self) {
        _ = try await firebase.signIn(with: .googleAccessToken(Secret("ya29.not-issued")))
      }
      #expect(unknown?.code == .invalidIdPResponse)
    }
  }
}
