/// The provider emulator: Facebook, X, LINE, a generic OpenID provider and Firebase
/// Authentication on one loopback port, for demos and for tests that must not reach the real
/// providers.
public enum SocialLoginEmulatorModule {
  /// The module's version, for the emulator's status document.
  public static let version = "0.1.0"
}
