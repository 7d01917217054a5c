import Foundation
import SocialLogin

/// The key ring the Redis tests seal with, shared with the `sociallogin-bench` worker and
/// follower processes they start: its file's path is put in `SOCIALLOGIN_SEALING_KEY_FILE`,
/// which those children inherit (the CLI's test processes do not: they get their own).
enum TestSealing {
  /// The key file of ``ring`` (it exists once ``ring`` was first used).
  static let keyFile = NSTemporaryDirectory() + "sociallogin-tests-\(getpid()).keys"

  static let ring: SealingKeyRing = {
    let key = SealingKey.generate()
    let path = keyFile
    _ = FileManager.default.createFile(
      atPath: path, contents: Data((key.keyFileLine + "\n").utf8),
      attributes: [.posixPermissions: 0o600])
    setenv("SOCIALLOGIN_SEALING_KEY_FILE", path, 1)
    do {
      return try SealingKeyRing(sealingKey: key)
    } catch {
      preconditionFailure("a ring of one generated key: \(error)")
    }
  }()

  static var sealing: RecordSealing { .keyRing(ring) }

  /// The ring a CLI child process created in its configuration directory under `home`.
  static func cliRing(home: URL) throws -> SealingKeyRing {
    try SealingKeyRing.load(
      contentsOf: home.appendingPathComponent("sociallogin/sealing.keys").path)
  }
}
