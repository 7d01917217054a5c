import Foundation
import SocialLogin

/// The key ring every Redis store of a bench run seals with: the file named by
/// `--sealing-key-file PATH` or `SOCIALLOGIN_SEALING_KEY_FILE` (as the CLI takes it), else a
/// new key in a private temporary file; the path is put in that variable, so the worker and
/// follower processes the bench starts open what it seals.
enum BenchSealing {
  static let sealing: RecordSealing = {
    let variable = "SOCIALLOGIN_SEALING_KEY_FILE"
    let arguments = CommandLine.arguments
    let flag = arguments.firstIndex(of: "--sealing-key-file").flatMap {
      arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil
    }
    if let path = flag ?? ProcessInfo.processInfo.environment[variable], !path.isEmpty {
      do {
        let ring = try SealingKeyRing.load(contentsOf: path)
        setenv(variable, path, 1)
        return .keyRing(ring)
      } catch {
        FileHandle.standardError.write(Data("sealing key file \(path): \(error)\n".utf8))
        exit(2)
      }
    }
    let key = SealingKey.generate()
    let path = NSTemporaryDirectory() + "sociallogin-bench-\(getpid()).keys"
    if FileManager.default.createFile(
      atPath: path, contents: Data((key.keyFileLine + "\n").utf8),
      attributes: [.posixPermissions: 0o600])
    {
      setenv(variable, path, 1)
    }
    // The ring of one generated key cannot fail to build.
    return (try? SealingKeyRing(sealingKey: key)).map(RecordSealing.keyRing) ?? .unsealed
  }()
}
