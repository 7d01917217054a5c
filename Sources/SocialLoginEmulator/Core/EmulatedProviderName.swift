import SocialLogin

/// The name of an emulated provider: the SDK's `ProviderID`, which the emulator
/// now uses for the first word of fault and transcript entries and the `provider` field of
/// `/_emulator/` requests.
@available(*, deprecated, renamed: "ProviderID")
public typealias EmulatedProviderName = ProviderID

extension ProviderID {
  /// The emulator's generic OpenID Connect provider, served under `/oidc`: the same value as
  /// ``ProviderEmulator/oidcProviderID``.
  ///
  /// The emulator itself no longer uses this name, which stands beside the SDK's
  /// `ProviderID.oidc(issuer:)` and reads as if it were that provider's id; it stays only
  /// while code outside the module (the CLI's demo, older tests) still names it. New code
  /// uses ``ProviderEmulator/oidcProviderID``.
  public static let oidc: ProviderID = ProviderEmulator.oidcProviderID
}

extension ProviderEmulator {
  /// The id of the emulator's generic OpenID Connect provider (`oidc`) in faults,
  /// transcripts and `/_emulator/` requests.
  public static let oidcProviderID: ProviderID = EmulatedOIDC.id
}
