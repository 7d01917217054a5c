import GlewlwydTestPeer
import Testing

/// Any `CI` value but empty, `0` and `false` means CI (where a missing peer fails the run).
@Suite(.timeLimit(.minutes(1)))
struct CIEnvironmentTests {
  @Test(arguments: ["true", "1", "yes", "TRUE", "github-actions"])
  func theseValuesMeanCI(value: String) {
    #expect(GlewlwydPeer.isCI(["CI": value]))
  }

  @Test(arguments: ["", "0", "false", "False", " "])
  func theseValuesDoNot(value: String) {
    #expect(!GlewlwydPeer.isCI(["CI": value]))
    #expect(!GlewlwydPeer.isCI([:]))
  }
}
