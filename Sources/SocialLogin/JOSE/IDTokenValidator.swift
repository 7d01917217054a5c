import Foundation

/// Validates OpenID Connect ID tokens (OIDC Core §3.1.3.7).
///
/// Checks, in order: size and structure; `alg` in the allowed list (never `none`) and fitting
/// the key; the signature with a key from the resolver; `exp`, `nbf`, `iat` (with leeway, on the
/// injected clock); `iss` exactly; `aud` contains the client id and lists no untrusted extra
/// audience; with several audiences, `azp` equals the client id; `nonce` equals the one sent;
/// `auth_time` within `max_age`; `at_hash` when an access token is given and the token has one.
/// Required claims: `iss`, `sub`, `aud`, `exp`, `iat`.
///
/// ```swift
/// let certs = JWKSCache(url: URL(string: "https://www.googleapis.com/oauth2/v3/certs")!,
///                       transport: URLSessionTransport())
/// let validator = IDTokenValidator(
///   configuration: .init(issuer: "https://accounts.google.com", clientID: clientID),
///   keys: certs)
/// let jwt = try await validator.validate(idToken, nonce: pending.nonce)
/// let userID = jwt.subject
/// ```
///
/// LINE Login, whose web tokens are `HS256` with the channel secret and whose app tokens are
/// `ES256` from its JWKS:
///
/// ```swift
/// let line = IDTokenValidator(
///   configuration: .init(issuer: "https://access.line.me", clientID: channelID,
///                        allowedAlgorithms: [.es256, .hs256]),
///   keys: HeaderKeyResolver.line(channelSecret: channelSecret, certificates: lineCerts))
/// ```
public struct IDTokenValidator: Sendable {
  /// What the relying party expects of its ID tokens.
  public struct Configuration: Sendable, Hashable {
    /// The exact issuer (`iss`).
    public var issuer: String
    /// The client id, which must be in `aud` (and equal `azp` when present).
    public var clientID: String
    /// Accepted algorithms. Default: `RS256` and `ES256`.
    public var allowedAlgorithms: Set<JWSAlgorithm>
    /// Clock-skew tolerance in seconds. Default: 60.
    public var leeway: TimeInterval
    /// Audiences besides ``clientID`` that may appear in `aud`. Default: none.
    public var trustedAudiences: Set<String>
    /// When set, reject tokens whose `iat` is older than this.
    public var maximumTokenAge: TimeInterval?
    /// Other spellings of ``issuer`` accepted in `iss` (Google: `accounts.google.com`).
    /// Default: none.
    public var alternativeIssuers: Set<String> = []
    /// Other client ids of the same application accepted in `aud` and `azp` in place of
    /// ``clientID``: the Android and iOS client ids whose tokens a backend verifies.
    /// Default: none.
    public var alternativeAudiences: Set<String> = []
    /// The provider whose tokens these are: every error ``IDTokenValidator`` throws names it
    /// in ``AuthError/provider`` (unless the error names one already).
    public var provider: ProviderID?

    /// Creates a configuration.
    public init(
      issuer: String,
      clientID: String,
      allowedAlgorithms: Set<JWSAlgorithm> = [.rs256, .es256],
      leeway: TimeInterval = 60,
      trustedAudiences: Set<String> = [],
      maximumTokenAge: TimeInterval? = nil,
      provider: ProviderID? = nil
    ) {
      self.provider = provider
      self.issuer = issuer
      self.clientID = clientID
      self.allowedAlgorithms = allowedAlgorithms
      self.leeway = leeway
      self.trustedAudiences = trustedAudiences
      self.maximumTokenAge = maximumTokenAge
    }
  }

  /// The expectations.
  public let configuration: Configuration
  private let resolver: any JWTKeyResolver
  private let clock: any AuthClock
  private let verifier: JWSVerifier

  /// Creates a validator.
  ///
  /// - Parameters:
  ///   - configuration: Issuer, client id and algorithm list.
  ///   - keys: Where keys come from: a ``JWKSCache``, a ``StaticKeyResolver``, an
  ///     ``HMACSecretResolver`` or a ``HeaderKeyResolver``.
  ///   - clock: The source of "now" (inject `ManualClock` in tests).
  public init(
    configuration: Configuration, keys: any JWTKeyResolver,
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.configuration = configuration
    resolver = keys
    self.clock = clock
    verifier = JWSVerifier(allowedAlgorithms: configuration.allowedAlgorithms)
  }

  /// Validates `idToken`.
  ///
  /// - Parameters:
  ///   - idToken: The compact JWT from the token response.
  ///   - nonce: The nonce sent in the authentication request; `nil` when none was sent.
  ///   - maxAge: The `max_age` sent, in seconds; `auth_time` is then required.
  ///   - accessToken: The access token issued with the ID token, to check `at_hash` (checked
  ///     only when the token has an `at_hash`, as in the code flow).
  ///   - refusingUnexpectedNonce: Refuse a token that carries a nonce when `nonce` is `nil`
  ///     (``JWTClaimsPolicy/refusesUnexpectedNonce``): set when verifying a token an app sent.
  /// - Returns: The verified token.
  /// - Throws: ``AuthError/Code/invalidToken`` with the ``JOSEError`` reason (``AuthError/joseError``),
  ///   or the key resolver's error (for example a network failure fetching the JWKS).
  public func validate(
    _ idToken: String, nonce: String?, maxAge: TimeInterval? = nil, accessToken: String? = nil,
    refusingUnexpectedNonce: Bool = false
  ) async throws(AuthError) -> VerifiedJWT {
    do throws(AuthError) {
      let jws = try await verifier.verify(idToken, resolver: resolver)
      do throws(JOSEError) {
        let claims = try JWSVerifier.claims(of: jws.payload)
        var policy = policy(nonce: nonce, maxAge: maxAge)
        policy.refusesUnexpectedNonce = refusingUnexpectedNonce
        try policy.check(
          claims, algorithm: jws.algorithm, now: clock.coarseWallTime, accessToken: accessToken)
        return VerifiedJWT(
          header: jws.header, claims: .object(claims), algorithm: jws.algorithm,
          keyID: jws.keyID)
      } catch {
        throw error.asAuthError
      }
    } catch {
      throw error.naming(configuration.provider)
    }
  }

  /// The claims of an ID token that was fully validated when it was stored, decoded from its
  /// payload: its signature is never checked again, because providers rotate their signing
  /// keys routinely (Google, Okta, Azure, Keycloak, Auth0) and a stored token outlives the key
  /// that signed it, as it outlives its `exp` when a refresh returns no new one (most
  /// providers). Only what says whose the session is gets checked: `iss` is the configured
  /// issuer, `aud` holds the client id, `sub` is present.
  func storedClaims(_ idToken: String) throws(AuthError) -> StoredIDToken {
    do throws(JOSEError) {
      let jws = try verifier.parse(idToken)
      let claims = try JWSVerifier.claims(of: jws.payload)
      var policy = policy(nonce: nil, maxAge: nil)
      policy.leeway = .greatestFiniteMagnitude
      policy.maximumTokenAge = nil
      policy.requiredClaims = ["iss", "sub", "aud"]
      try policy.check(
        claims, algorithm: JWSAlgorithm(rawValue: jws.header.algorithm) ?? .rs256,
        now: clock.coarseWallTime, accessToken: nil)
      return StoredIDToken(claims: claims)
    } catch {
      throw error.asAuthError.naming(configuration.provider)
    }
  }

  func policy(nonce: String?, maxAge: TimeInterval?) -> JWTClaimsPolicy {
    var policy = JWTClaimsPolicy(
      issuer: configuration.issuer, audience: configuration.clientID, nonce: nonce,
      leeway: configuration.leeway, requiredClaims: ["iss", "sub", "aud", "exp", "iat"])
    policy.rejectsUntrustedAudiences = true
    policy.trustedAudiences = configuration.trustedAudiences
    policy.alternativeIssuers = configuration.alternativeIssuers
    policy.alternativeAudiences = configuration.alternativeAudiences
    policy.requiresAuthorizedPartyForMultipleAudiences = true
    policy.maximumAuthenticationAge = maxAge
    policy.maximumTokenAge = configuration.maximumTokenAge
    return policy
  }
}

/// The claims of a stored ID token, decoded without checking its signature again (see
/// `IDTokenValidator.storedClaims(_:)`).
struct StoredIDToken: Sendable {
  let claims: [String: JSONValue]

  /// The claims of `token` decoded without any check, or `nil` when it is not a JWS of a
  /// JSON object.
  static func decoding(_ token: String) -> StoredIDToken? {
    guard let jws = try? CompactJWS(parsing: token),
      let claims = try? JWSVerifier.claims(of: jws.payload)
    else { return nil }
    return StoredIDToken(claims: claims)
  }

  var issuer: String? { claims["iss"]?.stringValue }
  var subject: String? { claims["sub"]?.stringValue }
  var audiences: [String] { VerifiedJWT.audiences(in: .object(claims)) ?? [] }

  /// Whether `other` names the same issuer, subject and audiences (OIDC Core §12.2).
  func sameAccount(as other: StoredIDToken) -> Bool {
    issuer == other.issuer && subject == other.subject
      && Set(audiences) == Set(other.audiences)
  }
}
