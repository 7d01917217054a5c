import SocialLogin
import Testing

@Suite struct VersionTests {
  @Test func versionIsSet() { #expect(SDKVersion.current.hasPrefix("0.")) }
}
