// Bridging the SDK's events to a service's own observability stack (swift-metrics here, in the
// service's package: the SDK depends on nothing), and an audit trail that opts in to subjects.
import Foundation
import SocialLogin
import SocialLoginTesting
import Synchronization

// snippet.hide
// Stand-ins with swift-metrics' shapes, so that this file builds without the package.
struct Counter {
  init(label: String, dimensions: [(String, String)]) { print("counter", label, dimensions) }
  func increment() {}
}
struct Timer {
  init(label: String, dimensions: [(String, String)]) {}
  func recordNanoseconds(_ duration: Int64) { print("timer", duration, "ns") }
}
let clock = ManualClock(wallTime: Date())
let provider = ScriptedProvider(id: "corp", clock: clock)
// snippet.show
struct SwiftMetricsObserver: AuthObserver {
  func observe(_ event: AuthEvent) {
    switch event {
    case .refreshed(let provider, let outcome, let duration, _):
      Counter(
        label: "sociallogin_refreshes_total",
        dimensions: [("provider", provider.rawValue), ("outcome", outcome.rawValue)]
      ).increment()
      Timer(
        label: "sociallogin_refresh_duration_seconds", dimensions: [("provider", provider.rawValue)]
      )
      .recordNanoseconds(
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds
          / 1_000_000_000)
    case .signedOut(let provider, let reason):
      Counter(
        label: "sociallogin_sign_outs_total",
        dimensions: [("provider", provider.rawValue), ("reason", reason.label)]
      ).increment()
    default:
      break
    }
  }
}

/// Says whose session it was: opts in to subjects, for an audit log (never for metrics).
final class AuditTrail: AuthObserver {
  private let lines = Mutex([String]())
  var receivesSubjects: Bool { true }
  func observe(_ event: AuthEvent) {}
  func observe(_ event: AuthEvent, subject: String) {
    if case .signedOut(let provider, let reason) = event {
      lines.withLock { $0.append("\(provider) \(subject) signed out: \(reason.label)") }
    }
  }
  var entries: [String] { lines.withLock { $0 } }
}

/// Several observers are one that forwards to each.
struct Observers: AuthObserver {
  let all: [any AuthObserver]
  var receivesSubjects: Bool { all.contains { $0.receivesSubjects } }
  func observe(_ event: AuthEvent) { for observer in all { observer.observe(event) } }
  func observe(_ event: AuthEvent, subject: String) {
    for observer in all {
      if observer.receivesSubjects {
        observer.observe(event, subject: subject)
      } else {
        observer.observe(event)
      }
    }
  }
}

let audit = AuditTrail()
let client = try LoginClient(
  providers: [provider], store: InMemorySessionStore(), clock: clock,
  observer: Observers(all: [SwiftMetricsObserver(), MetricsRecorder(), audit]))
// snippet.hide
let handle = try await client.beginLogin("corp", redirectURI: "https://app.example/callback")
let session = try await client.completeLogin(
  callback: AuthorizationCallback(parameters: [
    URLQueryItem(name: "code", value: "abc"), URLQueryItem(name: "state", value: handle.state),
  ]), expectedState: handle.state)
clock.advance(by: .seconds(7200))
_ = try await session.freshAccessToken()
try await session.signOut()
// snippet.show
print(audit.entries)  // ["corp user-… signed out: user_initiated"]
