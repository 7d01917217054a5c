import Foundation
import SocialLogin
import SocialLoginRedis

extension StoreLocation {
  /// A `RedisSessionStore` on the master that the sentinels of a `redis-sentinel://` or
  /// `rediss-sentinel://` URL name (`URL` cannot hold its comma-separated sentinel list, so
  /// the text goes to the store as given), with its profiles named by the URL without its
  /// credentials.
  static func openSentinel(
    _ text: String, sealingPath: String? = nil, keyPrefix: String? = nil,
    environment: [String: String]
  ) async throws -> StoreLocation {
    let store = try await RedisSessionStore.connect(
      url: text, sealing: .keyRing(sealingKeys(path: sealingPath, environment: environment)),
      options: redisOptions(keyPrefix: keyPrefix), environment: environment)
    let (shown, name) = withoutCredentials(text)
    return StoreLocation(
      store: store, profiles: try sharedProfiles(named: name + prefixShown(keyPrefix), environment),
      displayName: shown + prefixShown(keyPrefix))
  }

  /// The URL with its password shown as `***`, and without user or password (a stable name).
  static func withoutCredentials(_ text: String) -> (shown: String, name: String) {
    guard let schemeEnd = text.range(of: "://") else { return (text, text) }
    let authorityEnd =
      text[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? text.endIndex
    let authority = text[schemeEnd.upperBound..<authorityEnd]
    guard let at = authority.lastIndex(of: "@") else { return (text, text) }
    let prefix = text[..<schemeEnd.upperBound]
    let rest = text[authority.index(after: at)...]
    let user = authority[..<at].split(
      separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    let shown = user.count > 1 ? "\(prefix)\(user[0]):***@\(rest)" : "\(prefix)\(user[0])@\(rest)"
    return (shown, "\(prefix)\(rest)")
  }
}
