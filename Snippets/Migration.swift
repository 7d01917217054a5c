// The seed's AuthenticationManager + view model, on SocialLogin: one async call per login, typed
// errors, and a session that keeps its tokens fresh. Runs against the emulator in-process.
import Foundation
import Observation
import SocialLogin
import SocialLoginEmulator

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Was: an `ObservableObject` with `@Published var user` and `@Published var error`, fed by
/// `AuthenticationManager.signIn(with: LoginType)` returning a Combine `Future`.
@MainActor @Observable
final class AuthViewModel {
  private(set) var user: Identity?
  private(set) var error: AuthError?
  private let client: LoginClient

  init(client: LoginClient) { self.client = client }

  /// Was: `manager.signIn(with: .twitter).sink(receiveCompletion:receiveValue:)`.
  func signIn(with provider: ProviderID) async {
    do {
      let session = try await client.login(provider, reuse: .ifSignedIn)
      user = await session.identity  // was the seed's fetchUserData(); subject = its snsID
      error = nil
      Task { await watch(session) }
    } catch let failure as AuthError {
      error = failure  // .accessDenied, .timedOut, .providerError, ... with the provider's code
    } catch {
      // CancellationError: the screen went away; nothing to show.
    }
  }

  /// Sign-outs the provider decides (revoked, expired, app removed) reach the UI too.
  private func watch(_ session: SessionActor) async {
    for await state in session.states {
      if case .signedOut = state { user = nil }
    }
  }
}

// snippet.hide
let emulator = try ProviderEmulator()
emulator.start()
setenv(EmulatorHost.environmentVariable, emulator.host.description, 1)  // as in your tests
let agent = LoopbackUserAgent { url in _ = try await URLSession.shared.data(from: url) }
// snippet.show
// Was: one SNSAuthenticateProtocol conformer per LoginType case. Now: one provider per case.
let client = try LoginClient(
  providers: [
    try .facebook(
      appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret)),
    try .twitter(
      clientID: EmulatorApps.twitterClientID,
      clientSecret: Secret(EmulatorApps.twitterClientSecret)),
    try .line(
      channelID: EmulatorApps.lineChannelID, channelSecret: Secret(EmulatorApps.lineChannelSecret)),
  ],
  store: InMemorySessionStore(), userAgent: agent)
let model = AuthViewModel(client: client)
await model.signIn(with: .line)
print("user:", model.user?.name ?? "-", "error:", model.error?.code.rawValue ?? "-")
// snippet.hide
await emulator.shutdown()
