import Foundation

/// What one poll of a device login found (RFC 8628 §3.5, or a provider's equivalent).
///
/// Providers that adopt ``DeviceLoginProvider`` return it from
/// ``DeviceLoginProvider/pollDeviceLogin(_:)``; the SDK owns the waiting between polls, so
/// every provider gets the same interval, `slow_down` and expiry rules.
public enum DevicePollResult<Value: Sendable>: Sendable {
  /// The user has not answered yet (`authorization_pending`): poll again after the interval.
  case pending
  /// The provider asks for slower polling (`slow_down`): the interval grows by 5 seconds for
  /// this and every later poll, or becomes `interval` when the provider sent a longer one
  /// (GitHub sends the new interval).
  case slowDown(interval: TimeInterval?)
  /// The user approved: what the provider issued.
  case approved(Value)
}

/// The waiting between the polls of a device login: one schedule for every provider.
enum DevicePolling {
  /// The longest wait between two polls, whatever the server asks for.
  static let maximumInterval: TimeInterval = 3600

  /// Clamped so that a hostile interval can neither spin nor overflow a sleep.
  static func clamped(_ interval: TimeInterval) -> TimeInterval {
    interval.isFinite ? min(max(interval, 1), maximumInterval) : 5
  }

  /// Sleeps the interval on `clock` before each call of `poll` until it approves, throws, or
  /// the device code's expiry passes.
  ///
  /// Transient failures (network, 5xx, a body that is no answer) do not end the login: the
  /// device code is still good until it expires, so the interval doubles (RFC 8628 §3.5 asks
  /// for a backoff on such failures) and polling goes on. The last such error is not lost:
  /// its message is added to the expiry error when the code runs out meanwhile.
  ///
  /// - Throws: ``AuthError/Code/deviceCodeExpired`` at expiry, `poll`'s non-transient
  ///   errors, or `CancellationError`.
  static func run<Value: Sendable>(
    _ authorization: DeviceAuthorization, clock: any AuthClock, provider: ProviderID?,
    poll: () async throws -> DevicePollResult<Value>
  ) async throws -> Value {
    var interval = clamped(authorization.interval)
    var lastTransient: AuthError?
    while true {
      // Never sleep past the device code's expiry: end polling when it comes.
      let remaining = authorization.expiresAt.timeIntervalSince(clock.wallTime)
      if remaining > 0 {
        try await clock.sleep(for: .milliseconds(Int64(min(interval, remaining) * 1000)))
      }
      guard clock.wallTime < authorization.expiresAt else {
        var message = "The device code expired before the user approved the login; start again."
        if let lastTransient { message += " (The last poll failed: \(lastTransient.message))" }
        throw AuthError(.deviceCodeExpired, message, provider: provider)
      }
      let result: DevicePollResult<Value>
      do {
        result = try await poll()
      } catch let error as AuthError where error.isTransient {
        lastTransient = error
        interval = clamped(interval * 2)
        continue
      }
      switch result {
      case .approved(let value):
        return value
      case .pending:
        continue
      case .slowDown(let sent):
        let asked = sent.flatMap { $0.isFinite ? $0 : nil } ?? 0
        interval = clamped(max(interval + 5, asked))
      }
    }
  }
}
