import Foundation

extension OIDCProvider {
  /// RFC 6749 rules (only an OAuth error body signs out) plus the configured
  /// ``Configuration/refreshTokenRejections``.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    let rejections = configuration.refreshTokenRejections
    return RefreshFailure.oauth2(error) { error in rejections.contains { $0.matches(error) } }
  }
}
