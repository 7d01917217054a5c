import Foundation

/// Whether a token a refresh just handed to a caller lasts the minimum TTL the caller asked
/// for, and if not, why: a pure judgement, unit-tested.
enum TokenLifetime: Equatable {
  /// It lasts (or no minimum was asked: the policy's leeway is the session's business).
  case lasts
  /// The provider grants tokens shorter than the minimum: no refresh can meet it.
  case tooShort
  /// The provider grants enough, but this token was issued a while ago (adopted from another
  /// process): a new one would last.
  case issuedAWhileAgo

  /// Judges `credential` for `minimumTTL` at local time `now`. A token issued within
  /// `leeway` of `now` with a lifetime of at least the minimum lasts: what the round trip
  /// took cannot be had from any provider.
  static func judge(
    _ credential: Credential, for minimumTTL: Duration, at now: Date, leeway: Duration
  ) -> TokenLifetime {
    let minimum = minimumTTL.timeInterval
    guard minimum > 0, !credential.isValid(at: now, minimumTTL: minimum) else { return .lasts }
    guard credential.lifetime >= minimum else { return .tooShort }
    let localIssuedAt = credential.issuedAt.addingTimeInterval(-credential.serverTimeOffset)
    return now.timeIntervalSince(localIssuedAt) <= leeway.timeInterval ? .lasts : .issuedAWhileAgo
  }

  /// The ``AuthError/Code/tokenLifetimeTooShort`` error for `credential`.
  static func tooShortError(
    _ credential: Credential, for minimumTTL: Duration, at now: Date, key: SessionKey
  ) -> AuthError {
    let left = credential.localExpiresAt.map { max(0, Int($0.timeIntervalSince(now))) } ?? 0
    let granted = credential.lifetime.isFinite ? " (of \(Int(credential.lifetime)) s granted)" : ""
    return AuthError(
      .tokenLifetimeTooShort,
      "A token valid for at least \(minimumTTL) was asked for; the \(key.provider) token just "
        + "refreshed lasts \(left) s\(granted). Ask for less, or use forceRefresh().",
      provider: key.provider)
  }
}
