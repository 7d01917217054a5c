import Foundation
import SocialLogin

/// The key ring every Redis store of a bench run seals with: the file named by
/// `SOCIALLOGIN_SEALING_KEY_FILE` (as the CLI takes it), else a new key in a private
/// temporary file whose path is put in that variable, so the worker and follower processes the
/// bench starts open what it seals.
enum BenchSealing {
  static let sealing: RecordSealing = {
    let variable = "SOCIALLOGIN_SEALING_KEY_FILE"
    if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty,
      let ring = try? SealingKeyRing.load(contentsOf: path)
    {
      return .keyRing(ring)
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
