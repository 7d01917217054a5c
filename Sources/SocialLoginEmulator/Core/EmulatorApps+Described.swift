import SocialLogin

/// The default apps of the providers the emulator serves from a `ProviderDescription`
/// (Kakao, NAVER, Yahoo! JAPAN, GitHub, Microsoft): public test credentials, like the other
/// providers' in ``EmulatorApps``.
///
/// ```swift
/// let kakao = try #require(EmulatorApps.describedApp(for: .kakao))
/// var configuration = try DescribedProviderConfiguration(
///   .kakao, clientID: kakao.clientID, clientSecret: Secret(kakao.clientSecret),
///   emulatorHost: emulator.host)
/// configuration.appID = kakao.appID
/// ```
extension EmulatorApps {
  /// One described provider's default app.
  public struct DescribedApp: Sendable, Hashable {
    /// The client id (Kakao's REST API key).
    public var clientID: String
    /// The client secret (Kakao's "Client Secret", switched on).
    public var clientSecret: String
    /// The provider's own id of the app where it differs from the client id (Kakao's numeric
    /// app id in `access_token_info`), for `DescribedProviderConfiguration.appID`.
    public var appID: String?
    /// The values of the description's parameters the emulator's app uses (Microsoft's
    /// `tenant`).
    public var parameters: [String: String]
  }

  /// Kakao's REST API key.
  public static let kakaoClientID = "emulator-kakao-rest-api-key"
  /// Kakao's client secret ("Client Secret" is on for the emulated app).
  public static let kakaoClientSecret = "emulator-kakao-client-secret"
  /// Kakao's numeric app id, as `access_token_info` and the unlink webhook name it.
  public static let kakaoAppID = "1000004"
  /// Kakao's primary admin key: the unlink webhook's `Authorization: KakaoAK <key>`.
  public static let kakaoAdminKey = "emulator-kakao-admin-key"
  /// NAVER's client id.
  public static let naverClientID = "emulator-naver-client"
  /// NAVER's client secret.
  public static let naverClientSecret = "emulator-naver-client-secret"
  /// Yahoo! JAPAN's client id (a server-side client: HTTP Basic).
  public static let yahooJapanClientID = "emulator-yahoo-japan-client"
  /// Yahoo! JAPAN's client secret.
  public static let yahooJapanClientSecret = "emulator-yahoo-japan-client-secret"
  /// The GitHub OAuth app's client id.
  public static let githubClientID = "Iv1.emulator00000001"
  /// The GitHub OAuth app's client secret.
  public static let githubClientSecret = "emulator-github-client-secret"
  /// The Microsoft application (client) id.
  public static let microsoftClientID = "00000000-0000-4000-8000-000000000e01"
  /// The Microsoft client secret.
  public static let microsoftClientSecret = "emulator-microsoft-client-secret"
  /// The tenant of the emulated organization every user but a `consumers` login belongs to:
  /// the `tid` (and the issuer's tenant) of tokens from `common` and `organizations`.
  public static let microsoftTenantID = "00000000-0000-4000-8000-0000000000a1"
  /// The tenant of personal Microsoft accounts, as Microsoft names it (`consumers` logins).
  public static let microsoftConsumersTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

  /// The default app the emulator uses for `description`: the built-in provider's own (see
  /// ``describedApp(for:)``), else one derived from the id, so a description the SDK does not
  /// ship is served with no emulator code: client id `emulator-<id>-client`, secret
  /// `emulator-<id>-client-secret`, every parameter of the description `emulator`.
  public static func defaultApp(for description: ProviderDescription) -> DescribedApp {
    if let known = describedApp(for: description.id) { return known }
    let id = description.id.rawValue
    return DescribedApp(
      clientID: "emulator-\(id)-client", clientSecret: "emulator-\(id)-client-secret", appID: nil,
      parameters: Dictionary(uniqueKeysWithValues: description.parameters.map { ($0, "emulator") }))
  }

  /// The default app of the built-in described provider `id`, or `nil` for a provider the
  /// emulator does not serve from a built-in description.
  public static func describedApp(for id: ProviderID) -> DescribedApp? {
    switch id {
    case .kakao:
      DescribedApp(
        clientID: kakaoClientID, clientSecret: kakaoClientSecret, appID: kakaoAppID,
        parameters: [:])
    case .naver:
      DescribedApp(
        clientID: naverClientID, clientSecret: naverClientSecret, appID: nil, parameters: [:])
    case .yahooJapan:
      DescribedApp(
        clientID: yahooJapanClientID, clientSecret: yahooJapanClientSecret, appID: nil,
        parameters: [:])
    case .github:
      DescribedApp(
        clientID: githubClientID, clientSecret: githubClientSecret, appID: nil, parameters: [:])
    case .microsoft:
      DescribedApp(
        clientID: microsoftClientID, clientSecret: microsoftClientSecret, appID: nil,
        parameters: ["tenant": "common"])
    default: nil
    }
  }
}
