import Foundation
@_spi(Fuzzing) import SocialLoginRedis
import SocialLoginTesting
import Testing

/// Replays every input of `Tests/Fuzz/Corpus/<target>/` through the same entry functions the
/// libFuzzer executables call, so an input that once crashed a parser keeps being tried on
/// every `swift test`, without libFuzzer.
@Suite(.timeLimit(.minutes(5))) struct FuzzCorpusReplayTests {
  /// Every fuzz entry: the SDK's parsers and the Redis module's reply parser.
  static let targets: [FuzzTargets.Target] =
    FuzzTargets.all + [
      FuzzTargets.Target(name: RedisFuzzTargets.name, run: RedisFuzzTargets.respReply),
      FuzzTargets.Target(
        name: RedisStoreFuzzTargets.hintName, run: RedisStoreFuzzTargets.storeHint),
    ]

  /// Runs `body` on a thread of its own: some entries block their thread until the actors
  /// they drive finish, which must never happen on the cooperative pool.
  static func onOwnThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread {
        body()
        continuation.resume()
      }.start()
    }
  }

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
    #expect(folders == Self.targets.map(\.name).sorted())
    for folder in folders {
      let files = try FileManager.default.contentsOfDirectory(
        atPath: Self.corpus.appendingPathComponent(folder).path)
      #expect(!files.isEmpty, "Corpus/\(folder) is empty")
    }
  }

  @Test(arguments: Self.targets.map(\.name))
  func corpusReplaysWithoutACrash(target name: String) async throws {
    let target = try #require(Self.targets.first { $0.name == name })
    let folder = Self.corpus.appendingPathComponent(name)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    var replayed = 0
    for file in files where !file.hasPrefix(".") {
      let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
      await Self.onOwnThread {
        target.run(bytes)
        // Truncations too: the cheapest way to reach every "input ends here" path.
        target.run(Array(bytes.prefix(bytes.count / 2)))
      }
      replayed += 1
    }
    #expect(replayed > 0)
  }
}
