import Foundation

extension SessionActor {
  /// Starts refreshing on its own: ahead of expiry (the policy's proactive margin), and at
  /// `retryAt` while degraded. ``LoginClient`` calls this for every session it registers.
  ///
  /// The sessions of one client share a single sleeping task for this, however many there are.
  public func startAutoRefresh() {
    autoRefresh = true
    scheduleRefresh()
  }

  /// Stops the refreshes started by ``startAutoRefresh()``.
  public func stopAutoRefresh() {
    autoRefresh = false
    environment.scheduler.cancel(self)
  }

  /// Re-plans the next automatic refresh after any change of credential or state; with
  /// ``RefreshPolicy/maximumSessionLifetime``, no later than the end of the session's life
  /// (the wake-up then signs it out).
  func scheduleRefresh() {
    let lifetime = Self.lifetimeDeadline(of: record, policy: policy)
    guard autoRefresh, phase.isLive else {
      environment.scheduler.cancel(self)
      return
    }
    guard provider.capabilities.contains(.refresh), record.credential.refreshToken != nil else {
      if lifetime.isFinite {
        environment.scheduler.schedule(self, at: Date(timeIntervalSince1970: lifetime))
      } else {
        environment.scheduler.cancel(self)
      }
      return
    }
    let now = clock.wallTime
    let end = Date(timeIntervalSince1970: lifetime)
    if let retryAt = phase.degradation?.retryAt, retryAt > now {
      environment.scheduler.schedule(self, at: min(retryAt, end))
    } else if let margin = policy.proactiveMargin, let expiry = record.credential.localExpiresAt {
      let planned = Self.proactiveRefreshTime(
        of: record.credential, expiry: expiry, now: now, margin: margin, leeway: policy.leeway,
        fraction: policy.earliestProactiveRefreshFraction,
        interval: provider.automaticRefreshInterval)
      environment.scheduler.schedule(self, at: min(planned, end))
    } else if lifetime.isFinite {
      environment.scheduler.schedule(self, at: end)
    } else {
      environment.scheduler.cancel(self)
    }
  }

  /// When a session plans its next proactive refresh (the rule ``RefreshPolicy`` documents):
  /// `margin` (at least `leeway`) before `expiry`, but never before `fraction` of the token's
  /// life (``RefreshPolicy/earliestProactiveRefreshFraction``, halfway by default: a provider
  /// issuing tokens shorter-lived than the margin must not be asked for a new one in a loop;
  /// the point is anchored to when the token was issued, or now if that claims to be in the
  /// future, so planning again later does not move it), and never sooner than the provider's
  /// `interval` after the token was issued (``LoginProvider/automaticRefreshInterval``:
  /// Apple's once a day).
  static func proactiveRefreshTime(
    of credential: Credential, expiry: Date, now: Date, margin: Duration, leeway: Duration,
    fraction: Double = 0.5, interval: Duration?
  ) -> Date {
    let ahead = expiry.addingTimeInterval(-max(margin, leeway).timeInterval)
    let start = min(credential.issuedAt, now)
    let floor = start.addingTimeInterval(max(0, expiry.timeIntervalSince(start)) * fraction)
    let planned = max(ahead, floor)
    guard let interval else { return planned }
    return max(planned, start.addingTimeInterval(interval.timeInterval))
  }

  /// Called by the scheduler when this session's planned wake-up has come.
  func scheduledRefreshFired() async {
    guard autoRefresh, phase.isLive else { return }
    // One second more than the margin the wake-up was planned with: at the planned time the
    // token has exactly the margin left, which `freshCredential` would still accept.
    let margin = max(policy.proactiveMargin ?? .zero, policy.leeway) + .seconds(1)
    do {
      _ = try await freshCredential(minimumTTL: margin)
    } catch {
      // Failures already moved the state to degraded (and re-planned) or signed out.
    }
    // A refresh re-planned already; only a session left without a plan (its token was still
    // fresh enough) plans again here.
    if !environment.scheduler.hasPlan(self) { scheduleRefresh() }
  }
}
