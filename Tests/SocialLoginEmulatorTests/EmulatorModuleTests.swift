import SocialLoginEmulator
import Testing

@Suite(.timeLimit(.minutes(5))) struct EmulatorModuleTests {
  @Test func moduleHasAVersion() { #expect(!SocialLoginEmulatorModule.version.isEmpty) }
}
