import Foundation
import SocialLogin

/// The key ring that seals what the CLI writes to a shared store (Redis).
///
/// `--sealing-key-file PATH`, else `SOCIALLOGIN_SEALING_KEY_FILE`, else `sealing.keys` in the
/// CLI's private configuration directory, created (`0600`, one new key) on first use, so the
/// processes of one machine share it without a flag; replicas on several machines share the
/// file. A key file only ever adds protection: whichever way it is named, nothing is stored
/// unsealed and no trust moves.
extension StoreLocation {
  /// `--sealing-key-file PATH`, on every command that opens a store.
  static let sealingOption = Option.value(
    "--sealing-key-file", "PATH",
    help: "the key file that seals records in a Redis store (default: "
      + "$SOCIALLOGIN_SEALING_KEY_FILE, else sealing.keys in the configuration directory, "
      + "created on first use; see 'sociallogin store new-key')")

  /// The environment variable naming the key file.
  static let sealingVariable = "SOCIALLOGIN_SEALING_KEY_FILE"

  /// The file name of the default key file in the configuration directory.
  static let defaultKeyFileName = "sealing.keys"

  /// The key ring for `invocation`: the named key file, or the default one (created on first
  /// use).
  static func sealingKeys(_ invocation: Invocation) throws -> SealingKeyRing {
    try sealingKeys(
      path: invocation.arguments.value(sealingOption), environment: invocation.environment)
  }

  /// The key ring in `path`, else in the variable's file, else in the default file.
  static func sealingKeys(path: String?, environment: [String: String]) throws -> SealingKeyRing {
    if let path = path ?? environment[sealingVariable].flatMap({ $0.isEmpty ? nil : $0 }) {
      return try openKeyFile(path)
    }
    let directory = configurationDirectory(environment)
    try PrivateFiles.prepareDirectory(directory.path)
    let path = directory.appendingPathComponent(defaultKeyFileName).path
    // Two first runs at once must not each make a key: the second would replace the first's,
    // and what the first sealed would never open again.
    try PrivateFiles.withLock(path + ".lock") {
      guard !FileManager.default.fileExists(atPath: path) else { return }
      let text =
        "# SocialLogin sealing keys: the first key seals, every key opens. Keep this file "
        + "secret (0600).\n" + SealingKey.generate().keyFileLine + "\n"
      try PrivateFiles.write(Data(text.utf8), to: path)
    }
    return try openKeyFile(path)
  }

  private static func openKeyFile(_ path: String) throws -> SealingKeyRing {
    do {
      return try SealingKeyRing.load(contentsOf: path)
    } catch {
      throw AuthError(
        .configuration, "Sealing key file \(path): \(error.message)", underlying: error)
    }
  }
}
