// The seed's view model, redone with Observation: `user` and `error` follow the Firebase
// session's state stream. It builds on Linux and on Apple platforms alike.
import Foundation
import Observation
import SocialLogin
import SocialLoginEmulator

@MainActor @Observable
final class FirebaseViewModel {
  /// The signed-in Firebase user, or `nil`.
  private(set) var user: FirebaseUser?
  /// The last problem to show, or `nil`.
  private(set) var error: AuthError?

  private let firebase: FirebaseAuth
  private var watcher: Task<Void, Never>?

  init(firebase: FirebaseAuth) { self.firebase = firebase }

  /// Signs in to Firebase with another provider's session (for example `login(.facebook)`).
  func signIn(with session: SessionActor) async {
    do {
      let signedIn = try await firebase.signIn(with: session)
      user = signedIn.user
      error = nil
      observe(signedIn)
    } catch let failure as AuthError {
      error = failure
    } catch {
      self.error = AuthError(.network, "Sign-in failed.", underlying: error)
    }
  }

  /// Follows the session: degraded keeps the user and shows why; signed out clears the user.
  private func observe(_ signedIn: FirebaseSession) {
    watcher?.cancel()
    watcher = Task { [weak self] in
      for await state in signedIn.states {
        guard let self else { return }
        switch state {
        case .signedIn:
          self.error = nil
        case .degraded(let retryAt):
          self.error = AuthError(.network, "Reconnecting at \(retryAt).")
        case .signedOut(let reason):
          self.user = nil
          if reason != .userInitiated { self.error = .signedOut(reason, provider: .firebase) }
        }
      }
    }
  }

  /// Waits until the session's stream has ended (after a sign-out).
  func stopped() async { await watcher?.value }
}

// snippet.hide
let browser = URLSessionTransport()
try await ProviderEmulator.run { emulator in
  let facebook = FacebookProvider(
    configuration: try .init(
      appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
      emulatorHost: emulator.host))
  let login = try LoginClient(
    providers: [
      facebook,
      .firebase(
        apiKey: EmulatorApps.firebaseAPIKey, projectID: EmulatorApps.firebaseProjectID,
        emulatorHost: emulator.host),
    ],
    store: InMemorySessionStore())
  let agent = HeadlessUserAgent(redirectURI: "http://127.0.0.1:1/callback") { url in
    let answer = try await browser.send(TransportRequest(url: url))
    return URL(string: answer.headers["Location"] ?? "") ?? url
  }
  // snippet.show
  let model = FirebaseViewModel(firebase: try FirebaseAuth(client: login))
  await model.signIn(with: try await login.login(.facebook, using: agent))
  print("user:", model.user?.localID ?? "-", "error:", model.error?.code.rawValue ?? "-")
  for session in login.sessions where session.key.provider == .firebase {
    try await session.signOut()
  }
  await model.stopped()
  print("after sign-out, user:", model.user?.localID ?? "-")
  // snippet.hide
}
