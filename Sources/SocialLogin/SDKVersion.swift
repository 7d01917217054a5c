/// The SDK's version: the one place it is written. `sociallogin --version` prints it, the
/// emulator reports it at `GET /`, and `CHANGELOG.md`'s newest released section names it
/// (a test checks they agree).
public enum SDKVersion {
  /// The semantic version of this build.
  public static let current = "0.1.0"
}
