/// The observer of the login, verification or refresh the current task is doing on behalf of
/// a ``LoginClient`` or ``SessionActor``, for the events raised deep inside a provider (a key
/// set fetched by a ``JWKSCache`` shared by every provider that trusts the same issuer) where
/// no client is at hand.
///
/// Bound only while an observer is set, around the calls into a provider: without one, nothing
/// is bound and nothing is measured. Unstructured tasks a cache starts for a fetch inherit it.
enum AuthObservation {
  /// Who to tell, and which provider the work is for.
  struct Context: Sendable {
    let observer: any AuthObserver
    let provider: ProviderID
    let clock: any AuthClock
  }

  /// The current task's context; `nil` when no observer is set.
  @TaskLocal static var current: Context?

  /// Runs a key-set fetch, reporting its duration and outcome to the current observer, if any.
  /// `provider` names the provider when the fetcher knows it (Firebase); otherwise the
  /// context's.
  static func keySetFetch<Success>(
    provider: ProviderID?, _ fetch: () async -> Result<Success, AuthError>
  ) async -> Result<Success, AuthError> {
    guard let context = current else { return await fetch() }
    let elapsed = context.clock.stopwatch()
    let result = await fetch()
    let provider = provider ?? context.provider
    switch result {
    case .success:
      context.observer.observe(.keySetFetched(provider: provider, duration: elapsed()))
    case .failure(let error):
      context.observer.observe(
        .keySetFetchFailed(provider: provider, duration: elapsed(), code: error.code))
    }
    return result
  }
}

extension SessionEnvironment {
  /// Runs `body` (a call into `provider`) with the client's observer bound for the events
  /// raised inside it; without an observer, just runs it.
  func observing<Result>(
    _ provider: ProviderID, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    guard let observer else { return try await body() }
    return try await AuthObservation.$current.withValue(
      AuthObservation.Context(observer: observer, provider: provider, clock: clock),
      operation: body)
  }
}
