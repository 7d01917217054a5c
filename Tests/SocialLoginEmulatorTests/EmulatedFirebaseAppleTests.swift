import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// `apple.com` credentials in Firebase's `signInWithIdp`, through the emulator.
@Suite("Emulator: Firebase with Sign in with Apple", .timeLimit(.minutes(3)))
struct EmulatedFirebaseAppleTests {
  func firebase(_ emulator: ProviderEmulator) throws -> (LoginClient, FirebaseAuth) {
    let client = try LoginClient(
      providers: [
        try EmulatedProviders.apple(emulator, clock: SystemAuthClock()),
        .firebase(
          apiKey: EmulatorApps.firebaseAPIKey, projectID: EmulatorApps.firebaseProjectID,
          emulatorHost: emulator.host),
      ],
      store: InMemorySessionStore(), policy: RefreshPolicy(proactiveMargin: nil))
    return (client, try FirebaseAuth(client: client))
  }

  @Test func anAppsIdentityTokenAndRawNonceSignIn() async throws {
    try await ProviderEmulator.run { emulator in
      let (_, firebase) = try firebase(emulator)
      let raw = "raw-nonce-for-firebase"
      let hashed = SHA256Hex.of(raw)
      let app = try emulator.appleAuthorization(nonce: hashed)
      let signedIn = try await firebase.signIn(
        with: .apple(idToken: Secret(app.identityToken), rawNonce: Secret(raw)))
      #expect(signedIn.user.providerData.map(\.providerID) == ["apple.com"])
      #expect(signedIn.user.providerData.first?.rawID == EmulatedUser.alice.subject(at: .apple))
      #expect(signedIn.user.email == EmulatedUser.alice.email)
      // The wrong raw nonce is refused.
      await #expect(throws: AuthError.self) {
        _ = try await firebase.signIn(
          with: .apple(idToken: Secret(app.identityToken), rawNonce: "another"))
      }
    }
  }

  @Test func anAppleSessionBecomesAFirebaseSession() async throws {
    try await ProviderEmulator.run { emulator in
      let (client, firebase) = try firebase(emulator)
      let session = try await client.login(.apple, using: emulator.headlessAgent())
      let credential = try await firebase.credential(for: session)
      #expect(credential.providerID == "apple.com")
      let signedIn = try await firebase.signIn(with: session)
      #expect(signedIn.user.providerData.map(\.providerID) == ["apple.com"])
    }
  }
}
