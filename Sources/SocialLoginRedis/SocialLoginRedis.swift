/// Sessions, pending logins and refresh leases in Redis, for services with many replicas.
public enum SocialLoginRedisModule {
  /// The module's version.
  public static let version = "0.1.0"
}
