import SocialLogin
import Testing

@Suite(.timeLimit(.minutes(5))) struct VersionTests {
  @Test func versionIsSet() { #expect(SDKVersion.current.hasPrefix("0.")) }
}
