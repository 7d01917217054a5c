import Foundation
import SocialLogin

/// `sociallogin token`: a fresh access token on stdout, for scripts
/// (`curl -H "Authorization: Bearer $(sociallogin token --provider x)"`).
enum TokenCommand {
  static let command = Command(
    name: "token", summary: "Print a fresh access token of a stored session.",
    discussion: """
      Prints the access token and nothing else on stdout, refreshing it first (through the \
      session's single-flight refresh, shared with every other process using the store) when \
      it expires within --min-ttl seconds or the refresh leeway, or always with \
      --force-refresh. Asking for a longer --min-ttl than the provider grants exits 1 \
      (token_lifetime_too_short) rather than print a token that does not last. A signed-out \
      session exits 1 \
      with the reason on stderr. The tokens go only where the session's remembered profile \
      says: --emulator or $\(EmulatorHost.environmentVariable) naming an emulator the session \
      was not made with exits 2 and sends nothing.
      """,
    options: SessionSelection.options + [
      StoreLocation.option, StoreLocation.sealingOption, StoreLocation.keyPrefixOption, minTTL,
      forceRefresh,
    ],
    exitCodes: [
      ExitCode(status: 0, meaning: "the token is on stdout"),
      ExitCode(
        status: 1, meaning: "signed out, no session, or the provider failed (reason on stderr)"),
      ExitCode(
        status: 2,
        meaning: "bad usage (for example several sessions match, or --emulator or "
          + "$\(EmulatorHost.environmentVariable) names an emulator the session was not made "
          + "with; nothing is sent)"),
      ExitCode(status: 130, meaning: "interrupted (Ctrl-C)"),
    ],
    run: run)

  /// `--min-ttl SECONDS`.
  static let minTTL = Option.value(
    "--min-ttl", "SECONDS", .nonNegativeSeconds,
    help: "the token must stay valid this long (default 0; the refresh leeway of "
      + "\(RefreshPolicy().leeway.components.seconds) s always applies)")

  /// `--force-refresh`.
  static let forceRefresh = Option.flag(
    "--force-refresh",
    help: "refresh first whatever the token's time left (after an API rejected the token)")

  static func run(_ invocation: Invocation) async throws -> Int32 {
    let location = try await StoreLocation.open(invocation)
    let record = try await SessionSelection.select(invocation, in: location)
    let minimumTTL = invocation.arguments.number(minTTL) ?? 0
    let forced = invocation.arguments.flag(forceRefresh)
    let policy = RefreshPolicy()
    let required = max(minimumTTL, Double(policy.leeway.components.seconds))
    let profile = try? location.profiles.profile(for: record.key)
    if !forced, profile == nil, record.credential.isValid(at: Date(), minimumTTL: required) {
      // Nothing to refresh: no provider needed.
      Console.out(record.credential.accessToken.revealed + "\n")
      return 0
    }
    let resolved = try ProviderFactory.resolveStored(
      try SessionSelection.profile(for: record.key, in: location), for: record.key, invocation)
    let session = SessionActor(
      record: record, provider: try ProviderFactory.make(resolved), store: location.store,
      policy: policy)
    do {
      let token =
        forced
        ? try await session.forceRefresh().accessToken.revealed
        : try await session.freshAccessToken(minimumTTL: .seconds(minimumTTL))
      // The lease goes back (and the intent to spend is settled) before the process exits.
      await session.finishRefreshes()
      Console.out(token + "\n")
      return 0
    } catch let error as AuthError where error.code == .signedOut {
      await session.finishRefreshes()
      try? location.profiles.remove(record.key)
      throw error
    } catch {
      await session.finishRefreshes()
      throw error
    }
  }
}
