// Watch a session's state: the current state first, then every change, in order.
import Foundation
import SocialLogin
import SocialLoginTesting

// snippet.hide
let clock = ManualClock(wallTime: Date())
let provider = ScriptedProvider(clock: clock)
let client = try LoginClient(providers: [provider], store: InMemorySessionStore(), clock: clock)
let expired = Credential(
  accessToken: "at-0", refreshToken: "rt-0", expiresAt: clock.wallTime.addingTimeInterval(-1))
// snippet.show
let session = try await client.register(
  credential: expired, identity: Identity(provider: provider.id, subject: "alice"))

let watcher = Task {
  for await state in session.states {  // .signedIn, .signedIn (refreshed), .signedOut(...)
    print("state:", state)
  }
}

let token = try await session.freshAccessToken()  // one refresh, however many callers
print("token:", token)
try await session.signOut()
await watcher.value  // the stream ends after .signedOut
