import Foundation
import SocialLogin
import SocialLoginRedis

/// `sociallogin nonce`: a nonce for an app's sign-in, kept in the store until `verify` uses it.
enum NonceCommand {
  static let command = Command(
    name: "nonce", summary: "Print a new nonce for an app's sign-in, kept until verify uses it.",
    discussion: """
      Prints a random nonce (256 bits, base64url) on stdout and keeps it in the store (a \
      directory: DIR/nonces, one private file per nonce; Redis: shared by every machine) for \
      --ttl seconds. Give it to the app, which passes it to the provider's SDK; then \
      'sociallogin verify PROVIDER --id-token T' (without --nonce) finds the token's nonce \
      there and uses it up: a second verify of the same token fails.
      """,
    options: [
      StoreLocation.option, StoreLocation.sealingOption, StoreLocation.keyPrefixOption, ttl,
    ],
    exitCodes: [
      ExitCode(status: 0, meaning: "the nonce is on stdout"),
      ExitCode(status: 1, meaning: "the store failed (reason on stderr)"),
      ExitCode(status: 2, meaning: "bad usage"),
    ],
    run: run)

  /// `--ttl SECONDS`.
  static let ttl = Option.value(
    "--ttl", "SECONDS", .nonNegativeSeconds,
    help: "how long the nonce stays usable (default 600)")

  static func run(_ invocation: Invocation) async throws -> Int32 {
    let seconds = invocation.arguments.number(ttl) ?? 600
    guard seconds > 0 else { throw UsageError("--ttl must be more than 0 seconds") }
    let issuer = NonceIssuer(
      store: try await store(invocation), lifetime: .milliseconds(Int64(seconds * 1000)))
    Console.out(try await issuer.issue().revealed + "\n")
    return 0
  }

  /// The nonce store beside the session store `--store` names: `DIR/nonces` for a directory,
  /// the same Redis for a Redis store.
  static func store(_ invocation: Invocation) async throws -> any NonceStore {
    let location = try await StoreLocation.open(invocation)
    if let redis = location.store as? RedisSessionStore { return redis.nonces() }
    guard let files = location.store as? FileSessionStore else {
      throw AuthError(.configuration, "This session store keeps no nonces.")
    }
    return try FileNonceStore(directory: files.directory.appendingPathComponent("nonces"))
  }
}
