import SocialLogin
import SocialLoginCrypto

extension EmulatedUser {
  /// The user's id at a provider the emulator serves from a description, shaped as that
  /// provider's ids are; `nil` for other providers.
  ///
  /// Kakao ids are odd numbers above 2^53 for every user: no `Double` holds one exactly, so a
  /// client that reads the id through a `Double` gets another user's id and a test sees it.
  func describedSubject(at provider: ProviderID, digest: [UInt8], number: UInt64) -> String? {
    switch provider {
    case .kakao: return String((UInt64(1) << 53) + 1 + 2 * (number % (UInt64(1) << 61)))
    case .github: return String(1_000_000 + number % 100_000_000)
    case .naver: return Base64URL.encode(digest.prefix(32))
    case .yahooJapan: return HexEncoding.lowercase(digest.prefix(13)).uppercased()
    case .microsoft: return Base64URL.encode(digest.prefix(30))
    default: return nil
    }
  }
}
