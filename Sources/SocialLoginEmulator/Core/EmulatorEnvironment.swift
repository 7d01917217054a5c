import Foundation
import SocialLogin

/// What every emulated provider shares: the clock, the users, lifetimes, issued tokens, keys
/// and the emulator's own address.
final class EmulatorEnvironment: Sendable {
  /// `http://127.0.0.1:PORT`, without a trailing slash.
  let baseURL: String
  let clock: any AuthClock
  let tokens = TokenRegistry()
  let keys = EmulatorKeys()
  /// Device logins waiting for the user or for their poll.
  let devices = EmulatedDeviceGrants()
  private let state: Locked<State>

  struct State: Sendable {
    var users: [EmulatedUser]
    var currentUserID: String
    var lifetimes: [ProviderID: TokenLifetimes] = [:]
    /// Seconds added to the clock (`POST /_emulator/clock`), so HTTP users can expire tokens.
    var clockOffset: TimeInterval = 0
    /// Whether Facebook calls without `appsecret_proof` are refused ("Require App Secret").
    var facebookRequiresAppSecretProof = true
    /// LINE ID tokens: HS256 with the channel secret (web login) or ES256 (native apps).
    var lineSignsWithES256 = false
    /// OIDC ID tokens: ES256 (default) or RS256.
    var oidcSignsWithRS256 = false
    /// `userID clientID` pairs Apple has authorized: the `user` JSON is posted only the first
    /// time.
    var appleAuthorizations: Set<String> = []
    /// Apple client secrets whose signature verified, by value: checking a P-256 signature
    /// again for every request of a client that reuses its secret (as the SDK does for an
    /// hour) would hold a thread of the emulator's pool for nothing.
    var verifiedAppleSecrets: Set<String> = []
  }

  /// Whether `secret`'s signature verified before; otherwise runs `verify` and remembers a
  /// success.
  func appleSecretSignatureIsValid(_ secret: String, verify: () -> Bool) -> Bool {
    if state.withLock({ $0.verifiedAppleSecrets.contains(secret) }) { return true }
    guard verify() else { return false }
    state.withLock { state in
      if state.verifiedAppleSecrets.count > 1000 { state.verifiedAppleSecrets.removeAll() }
      state.verifiedAppleSecrets.insert(secret)
    }
    return true
  }

  /// Whether this is the first authorization of `clientID` by `userID` at Apple, recording it.
  func firstAppleAuthorization(userID: String, clientID: String) -> Bool {
    state.withLock { $0.appleAuthorizations.insert(userID + " " + clientID).inserted }
  }

  /// Forgets Apple authorizations of `userID` (after `consent-revoked`): the next one posts
  /// the `user` JSON again.
  func forgetAppleAuthorizations(userID: String) {
    state.withLock { state in
      state.appleAuthorizations = state.appleAuthorizations.filter {
        !$0.hasPrefix(userID + " ")
      }
    }
  }

  init(baseURL: String, clock: any AuthClock, users: [EmulatedUser]) {
    self.baseURL = baseURL
    self.clock = clock
    let users = users.isEmpty ? EmulatedUser.defaults : users
    state = Locked(State(users: users, currentUserID: users[0].id))
  }

  /// The emulator's time: its clock plus the offset set over HTTP.
  var now: Date {
    let offset = state.withLock { $0.clockOffset }
    return clock.wallTime.addingTimeInterval(offset)
  }

  func advanceClock(by seconds: TimeInterval) {
    state.withLock { $0.clockOffset += seconds }
  }

  var currentUser: EmulatedUser? {
    state.withLock { state in state.users.first { $0.id == state.currentUserID } }
  }

  func user(_ id: String) -> EmulatedUser? {
    state.withLock { state in state.users.first { $0.id == id } }
  }

  var users: [EmulatedUser] { state.withLock { $0.users } }
  var currentUserID: String { state.withLock { $0.currentUserID } }

  /// Adds `user`, or replaces the user with the same id.
  func upsert(_ user: EmulatedUser) {
    state.withLock { state in
      if let index = state.users.firstIndex(where: { $0.id == user.id }) {
        state.users[index] = user
      } else {
        state.users.append(user)
      }
    }
  }

  @discardableResult
  func removeUser(_ id: String) -> Bool {
    state.withLock { state in
      guard state.users.count > 1, let index = state.users.firstIndex(where: { $0.id == id })
      else { return false }
      state.users.remove(at: index)
      if state.currentUserID == id { state.currentUserID = state.users[0].id }
      return true
    }
  }

  @discardableResult
  func setCurrentUser(_ id: String) -> Bool {
    state.withLock { state in
      guard state.users.contains(where: { $0.id == id }) else { return false }
      state.currentUserID = id
      return true
    }
  }

  func lifetimes(for provider: ProviderID) -> TokenLifetimes {
    state.withLock { $0.lifetimes[provider] } ?? TokenLifetimes.defaults(for: provider)
  }

  func setLifetimes(_ lifetimes: TokenLifetimes, for provider: ProviderID) {
    state.withLock { $0.lifetimes[provider] = lifetimes }
  }

  var lineSignsWithES256: Bool {
    get { state.withLock { $0.lineSignsWithES256 } }
    set { state.withLock { $0.lineSignsWithES256 = newValue } }
  }

  var oidcSignsWithRS256: Bool {
    get { state.withLock { $0.oidcSignsWithRS256 } }
    set { state.withLock { $0.oidcSignsWithRS256 = newValue } }
  }

  var facebookRequiresAppSecretProof: Bool {
    get { state.withLock { $0.facebookRequiresAppSecretProof } }
    set { state.withLock { $0.facebookRequiresAppSecretProof = newValue } }
  }
}

extension EmulatorEnvironment {
  /// Issues the authorization code a consent screen redirects with: `prefix` plus
  /// `byteCount` random bytes, single use, living the provider's
  /// ``TokenLifetimes/authorizationCode``, remembering the `redirect_uri`, the PKCE challenge
  /// and method and the `nonce` (each only when given) for the token request to check.
  func issueAuthorizationCode(
    prefix: String, byteCount: Int = 24, provider: ProviderID, clientID: String,
    userID: String, scopes: [String], request: EmulatorRequest, redirectURI: String,
    challenge: String?, challengeMethod: String?, nonce: String?
  ) -> String {
    let code = TokenRegistry.makeValue(prefix: prefix, byteCount: byteCount)
    var extra = ["redirect_uri": redirectURI]
    extra["code_challenge"] = challenge
    extra["code_challenge_method"] = challengeMethod
    extra["nonce"] = nonce
    tokens.insert(
      IssuedToken(
        value: code, kind: .code, provider: provider, clientID: clientID, userID: userID,
        scopes: scopes, issuedAt: request.now,
        expiresAt: request.now.addingTimeInterval(lifetimes(for: provider).authorizationCode),
        grantID: TokenRegistry.makeGrantID(), extra: extra))
    return code
  }
}
