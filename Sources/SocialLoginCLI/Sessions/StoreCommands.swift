import Foundation
import SocialLogin
import SocialLoginRedis

/// `sociallogin store`: the sealing keys of shared stores.
enum StoreCommands {
  static let group = Command(
    name: "store", summary: "Manage the keys that seal records in a shared (Redis) store.",
    discussion: """
      Records in a Redis store are sealed (XChaCha20-Poly1305) with the first key of a key \
      file, and opened with any of its keys. To rotate: put a new line from 'store new-key' \
      first in every replica's key file, keeping the old line below it; run 'store reseal'; \
      then remove the old line.
      """,
    subcommands: [newKey, reseal])

  static let newKey = Command(
    name: "new-key", summary: "Print a new sealing key line for a key file.",
    discussion: """
      Prints one line, '<id> <base64url key>', on stdout. Key file format: UTF-8 text, one \
      key per line, blank lines and lines starting with '#' ignored; the first key seals, \
      every key opens. The file must not be readable by group or others (chmod 600).
      """,
    options: [],
    exitCodes: [ExitCode(status: 0, meaning: "the key line is on stdout")],
    run: { _ in
      Console.out(SealingKey.generate().keyFileLine + "\n")
      return 0
    })

  /// `--accept-unsealed`.
  static let acceptUnsealed = Option.flag(
    "--accept-unsealed",
    help: "also seal records an unsealed store wrote (a one-time migration; anyone who could "
      + "write to the Redis could have planted them)")

  static let reseal = Command(
    name: "reseal", summary: "Seal every record of a Redis store again with the first key.",
    discussion: """
      Reads every record and tombstone under the store's key prefix and seals those sealed \
      with an older key of the ring again with its first key, at the same version, without \
      waking any replica. Prints a JSON summary on stdout. Values whose seal does not open \
      are counted and left untouched.
      """,
    options: [
      StoreLocation.option, StoreLocation.sealingOption, StoreLocation.keyPrefixOption,
      acceptUnsealed,
    ],
    exitCodes: [
      ExitCode(status: 0, meaning: "every record opened and is sealed with the first key"),
      ExitCode(status: 1, meaning: "the store failed, or some values did not open"),
      ExitCode(status: 2, meaning: "bad usage, or the store is not a Redis store"),
    ],
    run: { invocation in
      let location = try await StoreLocation.open(invocation)
      guard let redis = location.store as? RedisSessionStore else {
        throw UsageError("store reseal needs --store redis://... (a directory is not sealed)")
      }
      let report = try await redis.reseal(
        acceptingUnsealed: invocation.arguments.flag(acceptUnsealed))
      Console.out(
        "{\"resealed\":\(report.resealed),\"current\":\(report.current),"
          + "\"skipped\":\(report.skipped),\"unopenable\":\(report.unopenable),"
          + "\"tombstones_visited\":\(!report.tombstonesNotVisited),"
          + "\"links_visited\":\(!report.linksNotVisited)}\n")
      guard report.unopenable == 0 else {
        throw CommandExit(
          status: 1,
          message: "\(report.unopenable) value(s) did not open with this key file and were left "
            + "untouched (sealed with a key the file lacks, or altered).")
      }
      return 0
    })
}
