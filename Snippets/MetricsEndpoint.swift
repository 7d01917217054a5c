// Operators' numbers: a MetricsRecorder observes the client (logins, refresh outcomes, lease
// waits, sign-outs by reason, degraded sessions, store failures, verifications, key-set
// fetches) and the service serves its Prometheus text on GET /metrics.
import Foundation
import SocialLogin
import SocialLoginTesting

// snippet.hide
let clock = ManualClock(wallTime: Date())
let provider = ScriptedProvider(id: "corp", clock: clock)  // stands in for OIDCProvider, X, LINE...
// snippet.show
let metrics = MetricsRecorder()
let client = try LoginClient(
  providers: [provider], store: InMemorySessionStore(), clock: clock, observer: metrics)

/// GET /metrics, mounted in whatever serves the service's routes
/// (Vapor: `app.get("metrics") { _ in … }`, Hummingbird: `router.get("metrics") { … }`).
func metricsEndpoint() -> (status: Int, contentType: String, body: String) {
  (200, MetricsRecorder.contentType, metrics.prometheusText())
}

// snippet.hide
// A user signs in (a two-step web login), then their token expires and is refreshed.
let handle = try await client.beginLogin("corp", redirectURI: "https://app.example/callback")
let callback = AuthorizationCallback(parameters: [
  URLQueryItem(name: "code", value: "abc"), URLQueryItem(name: "state", value: handle.state),
])
let session = try await client.completeLogin(callback: callback, expectedState: handle.state)
clock.advance(by: .seconds(7200))
_ = try await session.freshAccessToken()
// snippet.show
let response = metricsEndpoint()
print(response.status, response.contentType)
for line in response.body.split(separator: "\n") where line.hasPrefix("sociallogin_refreshes") {
  print(line)  // sociallogin_refreshes_total{provider="corp",outcome="refreshed"} 1
}
