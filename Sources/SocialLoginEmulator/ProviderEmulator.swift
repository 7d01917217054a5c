import Foundation
import LoopbackHTTP
import SocialLogin

/// The provider emulator: Facebook, X, LINE, Google, Apple, Firebase, a generic OpenID
/// provider, and Kakao, NAVER, Yahoo! JAPAN, GitHub and Microsoft (served from their
/// `ProviderDescription`s) on one loopback port,
/// each under its production host name as the first path segment
/// (`http://127.0.0.1:PORT/api.x.com/2/oauth2/token`), closely enough that the SDK's real
/// provider actors sign in, refresh, verify and revoke against it.
///
/// Logins auto-approve as the current user (``setCurrentUser(_:)``), so a plain HTTP client
/// that follows the authorize URL's 302 completes a login. Tokens expire by the emulator's
/// clock (pass a `ManualClock` to expire them without sleeping), and ``inject(_:)`` makes any
/// endpoint misbehave the way providers do on bad days. ``requests`` is the transcript of every
/// provider call, secrets redacted, for asserting on the wire ("exactly one refresh").
///
/// ```swift
/// try await ProviderEmulator.run { emulator in
///   let x = XProvider(configuration: .init(
///     clientID: EmulatorApps.twitterClientID,
///     clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host))
///   let client = try LoginClient(providers: [x], store: InMemorySessionStore())
///   let session = try await client.login(.twitter, using: emulator.headlessAgent())
///   emulator.inject(EmulatorFault(provider: .twitter, endpoint: "token", status: 503, count: 1))
/// }
/// ```
///
/// The same controls exist over HTTP under `/_emulator/` (see `EmulatorControlAPI`) for
/// tests in other languages and for `sociallogin emulator`.
public final class ProviderEmulator: Sendable {
  private let server: LoopbackServer
  let dispatcher: EmulatorDispatcher
  private let serving = Locked<Task<Void, Never>?>(nil)

  /// Binds a loopback port (the kernel's choice for `0`) and prepares the providers. Call
  /// ``start()`` to serve, or use ``run(port:clock:users:accessTokenTTL:describing:_:)``.
  ///
  /// - Parameters:
  ///   - port: The port, `0` for an ephemeral one.
  ///   - clock: The emulator's time, for token lifetimes and `Date` headers.
  ///   - users: The users; the first is the current one.
  ///   - accessTokenTTL: Overrides every provider's access-token lifetime, in seconds. At
  ///     or below the SDK's default leeway (30 s) a client with the default policy refreshes
  ///     on every token request (see ``TokenLifetimes/accessToken``).
  ///   - described: Providers the SDK does not ship, served from their descriptions (routes
  ///     from their production URLs) beside the built-in ones, each with the default app
  ///     ``EmulatorApps/defaultApp(for:)`` gives it. Validate them first
  ///     (`ProviderDescription.validate()`); an id that a built-in provider has is ignored.
  /// - Throws: `LoopbackServerError` when the port cannot be bound.
  public init(
    port: UInt16 = 0, clock: any AuthClock = SystemAuthClock(),
    users: [EmulatedUser] = EmulatedUser.defaults, accessTokenTTL: TimeInterval? = nil,
    describing described: [ProviderDescription] = []
  ) throws(LoopbackServerError) {
    server = try LoopbackServer(
      bindTo: .ipv4, port: port, limits: HTTPLimits(maxConnections: 128))
    let environment = EmulatorEnvironment(
      baseURL: server.baseURL, clock: clock, users: users)
    dispatcher = EmulatorDispatcher(environment: environment, describing: described)
    if let accessTokenTTL {
      for provider in dispatcher.table.providers.map(\.name) {
        var lifetimes = environment.lifetimes(for: provider)
        lifetimes.accessToken = accessTokenTTL
        environment.setLifetimes(lifetimes, for: provider)
      }
    }
  }

  deinit { server.close() }

  /// Starts an emulator, runs `body` with it, and shuts it down, also when `body` throws.
  ///
  /// ```swift
  /// let token = try await ProviderEmulator.run(clock: clock) { emulator in ... }
  /// ```
  public static func run<Result: Sendable>(
    port: UInt16 = 0, clock: any AuthClock = SystemAuthClock(),
    users: [EmulatedUser] = EmulatedUser.defaults, accessTokenTTL: TimeInterval? = nil,
    describing described: [ProviderDescription] = [],
    _ body: (ProviderEmulator) async throws -> Result
  ) async throws -> Result {
    let emulator = try ProviderEmulator(
      port: port, clock: clock, users: users, accessTokenTTL: accessTokenTTL,
      describing: described)
    emulator.start()
    do {
      let result = try await body(emulator)
      await emulator.shutdown()
      return result
    } catch {
      await emulator.shutdown()
      throw error
    }
  }

  /// Starts serving in a background task; idempotent.
  public func start() {
    let server = self.server
    let dispatcher = self.dispatcher
    serving.withLock { task in
      guard task == nil else { return }
      task = Task {
        try? await server.run { request in await EmulatorControlAPI.route(request, dispatcher) }
      }
    }
  }

  /// Stops serving without waiting (for `defer` and synchronous code); ``shutdown()`` also
  /// waits until the port is released.
  public func close() { server.close() }

  /// Stops serving, closes every connection and waits until the port is released.
  public func shutdown() async {
    server.close()
    let task = serving.withLock { $0 }
    await task?.value
  }

  // MARK: Addresses

  /// `http://127.0.0.1:PORT`.
  public var baseURL: URL { URL(string: server.baseURL) ?? URL(fileURLWithPath: "/") }
  /// The port.
  public var port: UInt16 { server.port }
  /// The emulator as every provider configuration's `emulatorHost:` takes it.
  public var host: EmulatorHost { EmulatorHost(host: "127.0.0.1", port: server.port) }
  /// The generic OpenID provider's issuer: `http://127.0.0.1:PORT/oidc`.
  public var oidcIssuer: URL { baseURL.appendingPathComponent("oidc") }

  /// `production` mapped onto the emulator (`https://api.x.com/2/users/me` →
  /// `http://127.0.0.1:PORT/api.x.com/2/users/me`).
  public func url(for production: URL) -> URL { host.map(production) }

  // MARK: Users

  /// The users.
  public var users: [EmulatedUser] { dispatcher.environment.users }
  /// The user logins approve as.
  public var currentUser: EmulatedUser? { dispatcher.environment.currentUser }

  /// Makes `id` the user logins approve as; `false` when there is no such user.
  @discardableResult
  public func setCurrentUser(_ id: String) -> Bool { dispatcher.environment.setCurrentUser(id) }

  /// Adds a user, or replaces the user with the same id.
  public func addUser(_ user: EmulatedUser) { dispatcher.environment.upsert(user) }

  /// Changes the user `id` in place; `false` when there is no such user.
  @discardableResult
  public func updateUser(_ id: String, _ change: (inout EmulatedUser) -> Void) -> Bool {
    guard var user = dispatcher.environment.user(id) else { return false }
    change(&user)
    user.id = id
    dispatcher.environment.upsert(user)
    return true
  }

  // MARK: Lifetimes and clock

  /// The lifetimes `provider` issues with.
  public func lifetimes(for provider: ProviderID) -> TokenLifetimes {
    dispatcher.environment.lifetimes(for: provider)
  }

  /// Sets the lifetimes of codes and tokens `provider` issues from now on. An access-token
  /// lifetime at or below the SDK's default leeway (30 s) makes a client with the default
  /// policy refresh on every token request (see ``TokenLifetimes/accessToken``).
  public func setLifetimes(_ lifetimes: TokenLifetimes, for provider: ProviderID) {
    dispatcher.environment.setLifetimes(lifetimes, for: provider)
  }

  /// The emulator's current time (its clock plus ``advanceClock(by:)``).
  public var now: Date { dispatcher.environment.now }

  /// Moves the emulator's time forward (for users of the HTTP API, who cannot pass a clock).
  public func advanceClock(by seconds: TimeInterval) {
    dispatcher.environment.advanceClock(by: seconds)
  }

  // MARK: Faults and transcript

  /// Injects a fault; faults are tried in the order injected, the first match applies.
  public func inject(_ fault: EmulatorFault) { dispatcher.inject(fault) }
  /// Removes every fault.
  public func clearFaults() { dispatcher.clearFaults() }
  /// The active faults, with their remaining counts.
  public var faults: [EmulatorFault] { dispatcher.activeFaults }

  /// Every provider request served, in order, secrets redacted.
  public var requests: [EmulatorRequestRecord] { dispatcher.requests }
  /// Clears the transcript.
  public func clearRequests() { dispatcher.clearRequests() }

  /// The transcript's requests to `provider`'s `endpoint`, optionally of one `grant_type`.
  public func requests(
    to provider: ProviderID, endpoint: String, grantType: String? = nil
  ) -> [EmulatorRequestRecord] {
    requests.filter {
      $0.provider == provider && $0.endpoint == endpoint
        && (grantType == nil || $0.grantType == grantType)
    }
  }

  // MARK: Tokens

  /// Revokes the refresh tokens (and, with `includingAccessTokens`, the access tokens) that
  /// `provider` issued to `userID` (everyone when `nil`), as a user removing the app would.
  /// Returns how many tokens changed.
  @discardableResult
  public func revokeTokens(
    provider: ProviderID? = nil, userID: String? = nil,
    includingAccessTokens: Bool = false
  ) -> Int {
    dispatcher.environment.tokens.invalidate(
      provider: provider, userID: userID,
      kinds: includingAccessTokens ? [.refresh, .access, .oauth1Access] : [.refresh])
  }

  /// Makes the matching refresh tokens (or access tokens) expire now.
  @discardableResult
  public func expireTokens(
    provider: ProviderID? = nil, userID: String? = nil, refreshTokens: Bool = true
  ) -> Int {
    dispatcher.environment.tokens.invalidate(
      provider: provider, userID: userID, kinds: refreshTokens ? [.refresh] : [.access],
      expireAt: now)
  }

  // MARK: Signing keys

  /// Rotates the emulator's ID-token signing keys, as Google, Okta, Azure, Keycloak and Auth0
  /// do routinely: from now on tokens are signed with new keys under new key ids, and the old
  /// keys leave every JWKS (the OpenID provider's `jwks`, LINE's `certs`), so a token signed
  /// before finds no key there any more. Over HTTP: `POST /_emulator/keys/rotate`.
  ///
  /// ```swift
  /// let session = try await client.login("corp", using: emulator.headlessAgent())
  /// emulator.rotateSigningKeys()
  /// _ = try await session.freshAccessToken()  // the stored ID token's key is gone: still fine
  /// ```
  ///
  /// The P-256 key is new; the RSA key keeps its material under its new id (the emulator
  /// has one per process, because generating one takes seconds). HS256 tokens (LINE web
  /// login) are keyed by the channel secret and do not change.
  ///
  /// - Returns: The new key ids, by algorithm (`ES256`, `RS256`).
  @discardableResult
  public func rotateSigningKeys() -> [JWSAlgorithm: String] {
    let ids = dispatcher.environment.keys.rotate()
    return [.es256: ids.es256, .rs256: ids.rs256]
  }

  // MARK: Provider settings

  /// Whether Facebook Graph calls without `appsecret_proof` are refused (default `true`, the
  /// "Require App Secret" app setting, so a client that forgets the proof fails here first).
  public var facebookRequiresAppSecretProof: Bool {
    get { dispatcher.environment.facebookRequiresAppSecretProof }
    set { dispatcher.environment.facebookRequiresAppSecretProof = newValue }
  }

  /// Whether LINE ID tokens are ES256 with `kid` (native apps) instead of HS256 with the
  /// channel secret (web login, the default).
  public var lineSignsWithES256: Bool {
    get { dispatcher.environment.lineSignsWithES256 }
    set { dispatcher.environment.lineSignsWithES256 = newValue }
  }

  /// The provider settings as `GET /_emulator/settings` answers them.
  public var settings: EmulatorSettings { dispatcher.environment.settings }

  /// Whether the OpenID provider signs RS256 instead of ES256.
  public var oidcSignsWithRS256: Bool {
    get { dispatcher.environment.oidcSignsWithRS256 }
    set { dispatcher.environment.oidcSignsWithRS256 = newValue }
  }

  /// A LINE ID token for `userID` (the current user when `nil`), as the LINE SDK hands a
  /// mobile app after login, for testing `verify(.idToken(_, nonce:))` without a login.
  ///
  /// ```swift
  /// let idToken = try emulator.lineIDToken(nonce: nonce, algorithm: .es256)
  /// let verified = try await client.verify(.idToken(idToken, nonce: nonce), from: .line)
  /// ```
  ///
  /// - Parameters:
  ///   - userID: The user, or `nil` for the current one.
  ///   - nonce: The nonce the app sent to LINE, carried in the token's `nonce` claim.
  ///   - algorithm: `.hs256` (keyed with the channel secret, as web login signs) or `.es256`
  ///     (with a `kid` from LINE's JWKS, as the native SDKs get); `nil` follows
  ///     ``lineSignsWithES256``.
  ///   - scopes: The scopes of the login (`email` adds the `email` claim).
  /// - Throws: `AuthError` `.configuration` for an unknown user or another
  ///   algorithm.
  public func lineIDToken(
    userID: String? = nil, nonce: String?, algorithm: JWSAlgorithm? = nil,
    scopes: [String] = ["profile", "openid", "email"]
  ) throws -> String {
    try Self.lineIDToken(
      in: dispatcher.environment, userID: userID, nonce: nonce, algorithm: algorithm,
      scopes: scopes)
  }

  /// ``lineIDToken(userID:nonce:algorithm:scopes:)`` for the control API too.
  static func lineIDToken(
    in environment: EmulatorEnvironment, userID: String?, nonce: String?,
    algorithm: JWSAlgorithm?, scopes: [String] = ["profile", "openid", "email"]
  ) throws -> String {
    guard let user = userID.map(environment.user) ?? environment.currentUser else {
      throw AuthError(.configuration, "The emulator has no user '\(userID ?? "")'.")
    }
    let es256: Bool?
    switch algorithm {
    case nil: es256 = nil
    case .es256?: es256 = true
    case .hs256?: es256 = false
    case let other?:
      throw AuthError(.configuration, "LINE signs ID tokens HS256 or ES256, not \(other).")
    }
    return try EmulatedLINE(environment).makeIDToken(
      user: user, scopes: scopes, nonce: nonce, now: environment.now, es256: es256)
  }

  /// A Facebook Limited Login ID token for `userID` (the current user when `nil`), as the iOS
  /// SDK receives it, for testing `verify(.idToken(_, nonce:))`.
  ///
  /// - Throws: when there is no such user or RS256 signing is unavailable.
  public func facebookLimitedLoginToken(
    userID: String? = nil, nonce: String?, appID: String = EmulatorApps.facebookAppID
  ) async throws -> String {
    let environment = dispatcher.environment
    await environment.keys.prepareRS256()
    guard let user = userID.flatMap(environment.user) ?? environment.currentUser else {
      throw AuthError(.configuration, "The emulator has no user '\(userID ?? "")'.")
    }
    return try EmulatedFacebook(environment).limitedLoginToken(
      user: user, appID: appID, nonce: nonce, now: environment.now)
  }
}
