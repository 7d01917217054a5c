/// The cached access token and until when (local seconds since 1970) it may be served without
/// a refresh. The actor rewrites it on every change of credential or state.
@usableFromInline
struct TokenCacheEntry: Sendable {
  @usableFromInline var token: String
  @usableFromInline var deadline: Double
}
