/// Whether ``LoginClient/login(_:reuse:using:)`` may return a session that is already signed
/// in instead of showing the authorization page again.
///
/// A command-line tool or an app for one person usually wants "the session I already have,
/// or a new login if there is none": that is ``ifSignedIn``.
///
/// ```swift
/// let session = try await client.login(.twitter, reuse: .ifSignedIn)
/// let token = try await session.freshAccessToken()   // no browser while the session lives
/// ```
///
/// A session is reused when it is the only live session of the provider
/// (``LoginClient/session(for:)-(ProviderID)``) and it can hand out an access token valid for
/// ``minimumTTL``, refreshing it first if needed (no browser). A session that the provider
/// signed out during that refresh is replaced by a new login. A transient refresh failure is
/// thrown rather than answered with a second login, which would fail the same way while the
/// provider or network is down.
public struct SessionReuse: Hashable, Sendable {
  /// How long the reused session's access token must stay valid; `nil` never reuses.
  public let minimumTTL: Duration?

  /// Always show the authorization page and sign in again (the default of
  /// ``LoginClient/login(_:reuse:using:)``).
  public static let never = SessionReuse(minimumTTL: nil)

  /// Reuse the provider's signed-in session when its access token is valid or can be
  /// refreshed without the user.
  public static let ifSignedIn = SessionReuse(minimumTTL: .zero)

  /// Reuse the provider's signed-in session when it can hand out an access token valid for
  /// at least `minimumTTL`.
  public static func ifSignedIn(validFor minimumTTL: Duration) -> SessionReuse {
    SessionReuse(minimumTTL: max(minimumTTL, .zero))
  }

  private init(minimumTTL: Duration?) {
    self.minimumTTL = minimumTTL
  }
}
