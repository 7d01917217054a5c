import Foundation
import SocialLogin

/// How long an emulated provider's codes and tokens live, in seconds of the emulator's clock.
///
/// The defaults are the providers' documented ones (providers.md): X 2-hour access tokens and
/// 30-second codes, LINE 30-day access tokens whose refresh token lives 90 days from the first
/// issue, Facebook 60-day long-lived tokens and no refresh token.
///
/// ```swift
/// emulator.setLifetimes(.init(accessToken: 60), for: .twitter)   // expire quickly in a test
/// ```
public struct TokenLifetimes: Sendable, Hashable, Codable {
  /// Access-token lifetime.
  ///
  /// At or below the SDK's default refresh leeway (`RefreshPolicy().leeway`, 30 s) every
  /// token is already "expired" to a session with the default policy the moment it is issued:
  /// every token request refreshes (150 callers on 5-second tokens made 11 refreshes in
  /// issue 33). To see proactive refreshes in a test, use more than the leeway (the SDK
  /// refreshes at `max(expiry − 120 s, halfway)`, see `RefreshPolicy`), or give the client a
  /// smaller leeway. `sociallogin emulator --access-token-ttl` and
  /// `POST /_emulator/lifetimes` warn about such lifetimes.
  public var accessToken: TimeInterval
  /// Refresh-token lifetime, `nil` for none documented (X: only rotation ends it). LINE
  /// counts it from the first access token of the grant; refreshing does not extend it.
  public var refreshToken: TimeInterval?
  /// Authorization-code lifetime.
  public var authorizationCode: TimeInterval
  /// Facebook only: the lifetime of a long-lived token from `fb_exchange_token`.
  public var longLivedAccessToken: TimeInterval
  /// ID-token lifetime (LINE, OIDC, Facebook Limited Login).
  public var idToken: TimeInterval

  /// Creates lifetimes.
  public init(
    accessToken: TimeInterval, refreshToken: TimeInterval? = nil,
    authorizationCode: TimeInterval = 600, longLivedAccessToken: TimeInterval = 5_183_944,
    idToken: TimeInterval = 3600
  ) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.authorizationCode = authorizationCode
    self.longLivedAccessToken = longLivedAccessToken
    self.idToken = idToken
  }

  enum CodingKeys: String, CodingKey {
    case accessToken = "access_token_ttl"
    case refreshToken = "refresh_token_ttl"
    case authorizationCode = "code_ttl"
    case longLivedAccessToken = "long_lived_access_token_ttl"
    case idToken = "id_token_ttl"
  }

  /// The warning for an access-token lifetime of `seconds` at or below the SDK's default
  /// refresh leeway, or `nil` for a longer one.
  static func leewayWarning(accessToken seconds: TimeInterval) -> String? {
    let leeway = RefreshPolicy().leeway.components.seconds
    guard seconds <= TimeInterval(leeway) else { return nil }
    let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    return "access tokens of \(shown) s last no longer than the SDK's default "
      + "refresh leeway (RefreshPolicy.leeway, \(leeway) s): a client with the default policy "
      + "refreshes on every token request"
  }

  /// The default lifetimes of `provider`.
  public static func defaults(for provider: ProviderID) -> TokenLifetimes {
    switch provider {
    case .facebook: TokenLifetimes(accessToken: 5_183_944, authorizationCode: 600)
    case .twitter: TokenLifetimes(accessToken: 7200, authorizationCode: 30)
    case .line:
      TokenLifetimes(accessToken: 2_592_000, refreshToken: 7_776_000, idToken: 3600)
    // Apple: one-hour access tokens, refresh tokens without a time limit, five-minute codes,
    // ten-minute ID tokens (providers.md §8).
    case .apple:
      TokenLifetimes(accessToken: 3600, refreshToken: nil, authorizationCode: 300, idToken: 600)
    // Kakao: six-hour REST API access tokens, two-month refresh tokens (providers.md §11.2).
    case .kakao: TokenLifetimes(accessToken: 21_599, refreshToken: 5_183_999)
    // NAVER: one hour; the refresh token's lifetime is undocumented (§12), a year here.
    case .naver: TokenLifetimes(accessToken: 3600, refreshToken: 31_536_000)
    // Yahoo! JAPAN: one hour, refresh tokens of four weeks (§13).
    case .yahooJapan: TokenLifetimes(accessToken: 3600, refreshToken: 2_419_200)
    // GitHub apps' expiring user tokens: eight hours, refresh tokens of six months.
    case .github: TokenLifetimes(accessToken: 28_800, refreshToken: 15_897_600)
    // Microsoft: about an hour, refresh tokens of 90 days.
    case .microsoft: TokenLifetimes(accessToken: 3600, refreshToken: 7_776_000)
    default: TokenLifetimes(accessToken: 3600, refreshToken: 2_592_000, authorizationCode: 60)
    }
  }
}
