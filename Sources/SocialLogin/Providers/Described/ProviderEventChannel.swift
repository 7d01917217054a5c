/// The channel a described provider pushes events on, which ``ProviderEventReceiver`` serves.
public enum ProviderEventChannel: String, Hashable, Sendable, Codable {
  /// OpenID Connect Back-Channel Logout.
  case backChannelLogout = "backchannel_logout"
  /// Google's Cross-Account Protection (RISC).
  case risc
  /// Kakao's unlink webhook.
  case kakaoUnlink = "kakao_unlink"
}
