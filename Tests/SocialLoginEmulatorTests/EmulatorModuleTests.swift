import SocialLoginEmulator
import Testing

@Suite struct EmulatorModuleTests {
  @Test func moduleHasAVersion() { #expect(!SocialLoginEmulatorModule.version.isEmpty) }
}
