import SocialLogin

/// The name of an emulated provider: the SDK's `ProviderID`, which the emulator
/// now uses for the first word of fault and transcript entries and the `provider` field of
/// `/_emulator/` requests.
@available(*, deprecated, renamed: "ProviderID")
public typealias EmulatedProviderName = ProviderID

extension ProviderID {
  /// The emulator's generic OpenID Connect provider, served under `/oidc`.
  public static let oidc: ProviderID = "oidc"
}
