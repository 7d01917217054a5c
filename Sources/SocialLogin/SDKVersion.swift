/// The SDK's version, as printed by `sociallogin --version`.
public enum SDKVersion {
  /// The semantic version of this build.
  public static let current = "0.1.0-dev"
}
