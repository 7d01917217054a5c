import Foundation
import SocialLoginTesting
import Testing

/// Replays every input of `Tests/Fuzz/Corpus/<target>/` through the same entry functions the
/// libFuzzer executables call, so an input that once crashed a parser keeps being tried on
/// every `swift test`, without libFuzzer.
@Suite(.timeLimit(.minutes(5))) struct FuzzCorpusReplayTests {
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // SocialLoginTests
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("Fuzz/Corpus")

  static func folders() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { !$0.hasPrefix(".") }
      .sorted()
  }

  @Test func everyTargetHasASeedCorpusAndEveryCorpusATarget() throws {
    let folders = try Self.folders()
    #expect(folders == FuzzTargets.all.map(\.name).sorted())
    for folder in folders {
      let files = try FileManager.default.contentsOfDirectory(
        atPath: Self.corpus.appendingPathComponent(folder).path)
      #expect(!files.isEmpty, "Corpus/\(folder) is empty")
    }
  }

  @Test(arguments: FuzzTargets.all.map(\.name))
  func corpusReplaysWithoutACrash(target name: String) async throws {
    let target = try #require(FuzzTargets.target(named: name))
    let folder = Self.corpus.appendingPathComponent(name)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    var replayed = 0
    for file in files where !file.hasPrefix(".") {
      let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
      target.run(bytes)
      // Truncations too: the cheapest way to reach every "input ends here" path.
      target.run(Array(bytes.prefix(bytes.count / 2)))
      replayed += 1
      await Task.yield()
    }
    #expect(replayed > 0)
  }
}
