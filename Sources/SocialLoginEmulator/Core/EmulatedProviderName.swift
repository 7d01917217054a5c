import SocialLogin

/// The name of an emulated provider: the SDK's `ProviderID`, which the emulator
/// now uses for the first word of fault and transcript entries and the `provider` field of
/// `/_emulator/` requests.
@available(*, deprecated, renamed: "ProviderID")
public typealias EmulatedProviderName = ProviderID

extension ProviderEmulator {
  /// The id of the emulator's generic OpenID Connect provider (`oidc`) in faults,
  /// transcripts and `/_emulator/` requests.
  public static let oidcProviderID: ProviderID = EmulatedOIDC.id
}
