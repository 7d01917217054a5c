import Foundation
import SocialLogin
import SocialLoginCrypto

/// A person the emulator signs in as: every emulated provider shows the same user under its
/// own kind of id (a numeric Facebook id, a numeric X id, a `U…` LINE user id).
///
/// ```swift
/// let emulator = try ProviderEmulator(users: [.alice, EmulatedUser(id: "dana", name: "Dana")])
/// emulator.setCurrentUser("dana")
/// emulator.updateUser("alice") { $0.authorization = .deny }   // the next login is cancelled
/// ```
public struct EmulatedUser: Sendable, Hashable, Codable {
  /// What the emulated consent screen does when this user is the current one.
  public enum Authorization: String, Sendable, Hashable, Codable {
    /// Approve at once: the authorize endpoint redirects with `code` and `state`.
    case approve
    /// Cancel: the authorize endpoint redirects with the provider's own cancel error.
    case deny
    /// Show a consent page (HTTP 200) with "Allow" and "Cancel" links instead of redirecting.
    case consent
  }

  /// The emulator's key for the user (also X's `username` and the OIDC `sub`).
  public var id: String
  /// The display name.
  public var name: String
  /// The email address, when the user shares one.
  public var email: String?
  /// The profile picture URL.
  public var picture: String?
  /// What the consent screen does.
  public var authorization: Authorization
  /// A disabled (suspended, checkpointed) account: token and identity endpoints answer the
  /// provider's own "account disabled" error.
  public var isDisabled: Bool

  /// Creates a user.
  public init(
    id: String, name: String, email: String? = nil, picture: String? = nil,
    authorization: Authorization = .approve, isDisabled: Bool = false
  ) {
    self.id = id
    self.name = name
    self.email = email
    self.picture = picture
    self.authorization = authorization
    self.isDisabled = isDisabled
  }

  /// Alice, the default current user.
  public static let alice = EmulatedUser(
    id: "alice", name: "Alice Example", email: "alice@example.test",
    picture: "https://pictures.example.test/alice.png")
  /// Bob.
  public static let bob = EmulatedUser(
    id: "bob", name: "Bob Example", email: "bob@example.test",
    picture: "https://pictures.example.test/bob.png")
  /// Carol, who shares no email address.
  public static let carol = EmulatedUser(
    id: "carol", name: "Carol Example", picture: "https://pictures.example.test/carol.png")

  /// The users an emulator starts with: Alice (current), Bob and Carol.
  public static let defaults: [EmulatedUser] = [.alice, .bob, .carol]

  enum CodingKeys: String, CodingKey {
    case id, name, email, picture, authorization
    case isDisabled = "disabled"
  }

  /// Decodes leniently: only `id` is required, so `{"id":"dana"}` over HTTP is a user.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    name = try container.decodeIfPresent(String.self, forKey: .name) ?? id
    email = try container.decodeIfPresent(String.self, forKey: .email)
    picture = try container.decodeIfPresent(String.self, forKey: .picture)
    authorization =
      try container.decodeIfPresent(Authorization.self, forKey: .authorization) ?? .approve
    isDisabled = try container.decodeIfPresent(Bool.self, forKey: .isDisabled) ?? false
  }

  /// The user's id at `provider`: stable for a user id, shaped as that provider's ids are.
  public func subject(at provider: ProviderID) -> String {
    let digest = SHA256.hash(Array((provider.rawValue + "/" + id).utf8))
    let number = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    switch provider {
    case .facebook: return "10" + String(number % 10_000_000_000_000)
    case .twitter: return "1" + String(number % 1_000_000_000_000_000_000)
    case .line: return "U" + HexEncoding.lowercase(digest.prefix(16))
    default: return describedSubject(at: provider, digest: Array(digest), number: number) ?? id
    }
  }
}
