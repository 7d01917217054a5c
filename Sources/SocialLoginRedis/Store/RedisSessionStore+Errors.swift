import SocialLogin

extension RedisSessionStore {
  /// Wraps a client failure as the store protocol's error: refused credentials are a
  /// configuration problem; everything else (unreachable, timeouts, broken replies) is
  /// `storageFailed`, which sessions treat as transient. Cancellation passes through, and so
  /// does a cancelled caller's command: cancelling it cuts its connection, and the caller must
  /// see `CancellationError`, not a broken connection (a cancelled lease waiter, for one).
  static func storeError(_ error: any Error, _ action: String, key: SessionKey? = nil) -> any Error
  {
    if error is CancellationError || error is AuthError { return error }
    if Task.isCancelled { return CancellationError() }
    guard let redis = error as? RedisError else {
      return AuthError(
        .storageFailed, "Redis session store: \(action) failed.", provider: key?.provider,
        underlying: error)
    }
    if redis.kind == .authenticationFailed {
      return AuthError(
        .configuration, "Redis session store: \(redis.message)", provider: key?.provider,
        underlying: redis)
    }
    return AuthError(
      .storageFailed, "Redis session store: \(action) failed: \(redis.message)",
      provider: key?.provider, underlying: redis)
  }
}
