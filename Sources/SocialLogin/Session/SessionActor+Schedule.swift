import Foundation

extension SessionActor {
  /// Starts refreshing on its own: ahead of expiry (the policy's proactive margin), and at
  /// `retryAt` while degraded. ``LoginClient`` calls this for every session it registers.
  public func startAutoRefresh() {
    autoRefresh = true
    scheduleRefresh()
  }

  /// Stops the refreshes started by ``startAutoRefresh()``.
  public func stopAutoRefresh() {
    autoRefresh = false
    scheduledRefresh?.cancel()
    scheduledRefresh = nil
  }

  /// Re-plans the next automatic refresh after any change of credential or state.
  func scheduleRefresh() {
    scheduledRefresh?.cancel()
    scheduledRefresh = nil
    guard autoRefresh, signedOutReason == nil, provider.capabilities.contains(.refresh),
      record.credential.refreshToken != nil
    else { return }
    let wake: Date
    if let retryAt {
      wake = retryAt
    } else if let margin = policy.proactiveMargin, let expiry = record.credential.localExpiresAt {
      wake = expiry.addingTimeInterval(-max(margin, policy.leeway).timeInterval)
    } else {
      return
    }
    // Clamped: an absurd expiry (far future, infinity) must not overflow the conversion below;
    // a day later the plan is simply made again.
    let delay = min(max(0, wake.timeIntervalSince(clock.wallTime)), 86_400)
    let isFinal = delay < 86_400
    scheduledRefresh = Task { [weak self, clock] in
      do { try await clock.sleep(for: .milliseconds(Int64(delay * 1000))) } catch { return }
      if isFinal {
        await self?.scheduledRefreshFired()
      } else {
        await self?.scheduleRefresh()
      }
    }
  }

  private func scheduledRefreshFired() async {
    scheduledRefresh = nil
    let margin = max(policy.proactiveMargin ?? .zero, policy.leeway)
    do {
      _ = try await freshCredential(minimumTTL: margin)
    } catch {
      // Failures already moved the state to degraded (and re-planned) or signed out.
    }
    if scheduledRefresh == nil { scheduleRefresh() }
  }
}
