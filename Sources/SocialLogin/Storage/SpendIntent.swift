import Foundation
import SocialLoginCrypto

/// A lease holder's record, made in the store before its refresh request is sent, that it is
/// about to spend one refresh token.
///
/// A process can be killed after the provider spent the token and before the answer was
/// saved: the new tokens then exist only in a dead process. The intent is what lets the next
/// holder of the lease know that an answer may have been lost, so that if the provider then
/// refuses the token the session ends as ``SignOutReason/refreshResponseLost`` on every
/// replica (never as a generic sign-out), and, with a provider that honours a just-spent token
/// for a grace period, so that it retries at once. A holder settles its intent by saving the
/// answer or releasing the lease; an intent that is still there when another holder takes the
/// lease was interrupted.
///
/// It names the token by a digest, never the token itself: stores that are not trusted with
/// tokens (Redis) keep it beside the sealed record.
public struct SpendIntent: Sendable, Hashable {
  /// The first 128 bits of the SHA-256 of the refresh token, in lowercase hex
  /// (``digest(of:)``).
  public var refreshTokenDigest: String
  /// Who recorded it: a store-specific name of the holder (a process or a store instance).
  public var owner: String
  /// When it was recorded, by the holder's clock.
  public var recordedAt: Date

  /// Creates an intent.
  public init(refreshTokenDigest: String, owner: String, recordedAt: Date) {
    self.refreshTokenDigest = refreshTokenDigest
    self.owner = owner
    self.recordedAt = recordedAt
  }

  /// The digest an intent names `refreshToken` by: the first 128 bits of its SHA-256, in
  /// lowercase hex (32 characters). One-way, so an intent read by whoever can read the store
  /// reveals nothing of the token.
  public static func digest(of refreshToken: Secret) -> String {
    HexEncoding.lowercase(SHA256.hash(Array(refreshToken.revealed.utf8)).prefix(16))
  }

  /// An intent read back from a store, from its three fields as text, or `nil` unless each
  /// has its exact shape: a digest (``isDigest(_:)``), an owner of 1–96 printable ASCII
  /// characters without spaces, and a time of at most 15 decimal digits in milliseconds since
  /// 1970. What a store reads is outside data: stores check it here, in one place, before they
  /// believe it.
  package init?(digest: Substring, owner: Substring, milliseconds: Substring) {
    guard Self.isDigest(digest), (1...96).contains(owner.utf8.count),
      owner.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), milliseconds.utf8.count <= 15,
      milliseconds.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let value = Int64(milliseconds)
    else { return nil }
    self.init(
      refreshTokenDigest: String(digest), owner: String(owner),
      recordedAt: Date(timeIntervalSince1970: Double(value) / 1000))
  }

  /// Whether `text` has the shape of a digest: 32 lowercase hex characters. Stores check what
  /// they read before they believe it.
  public static func isDigest(_ text: Substring) -> Bool {
    text.utf8.count == 32
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}
