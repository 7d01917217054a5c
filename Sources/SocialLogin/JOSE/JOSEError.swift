/// Why a JWS, JWT, JWK or ID token was rejected.
///
/// Every rejection in the JOSE layer carries one stable, machine-readable ``Reason``. The
/// public verification APIs throw ``AuthError`` with code ``AuthError/Code/invalidToken`` (or
/// ``AuthError/Code/invalidResponse`` for a bad JWKS document) and this value as its
/// ``AuthError/underlying`` cause; read it back with ``AuthError/joseError``.
///
/// ```swift
/// do {
///   let jwt = try await validator.validate(idToken, nonce: sentNonce)
/// } catch let error as AuthError {
///   switch error.joseError?.reason {
///   case .expired?: askTheUserToSignInAgain()
///   case .signatureInvalid?, .algorithmNotAllowed?: reportAttack(error)
///   default: throw error
///   }
/// }
/// ```
public struct JOSEError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A stable reason code. New reasons may be added; switch with a `default` case.
  public struct Reason: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
  {
    /// The reason's stable snake_case string, for example `signature_invalid`.
    public let rawValue: String
    /// Creates a reason.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a reason from a literal.
    public init(stringLiteral value: String) { rawValue = value }
    /// The reason's string.
    public var description: String { rawValue }

    // Structure.
    /// Not three dot-separated segments, bad base64url, bad JSON, or a header or claim of the
    /// wrong type.
    public static let malformed: Reason = "malformed"
    /// The token (or a JSON document) exceeds the size cap.
    public static let tooLarge: Reason = "too_large"
    /// The header lists a `crit` extension this library does not implement.
    public static let unsupportedCritical: Reason = "unsupported_critical"

    // Algorithm and key selection.
    /// The header's `alg` is `none` or not in the caller's allowed list.
    public static let algorithmNotAllowed: Reason = "algorithm_not_allowed"
    /// The header's `alg` is not one this library implements (`PS256`, `EdDSA`, ...).
    public static let unsupportedAlgorithm: Reason = "unsupported_algorithm"
    /// The key cannot be used with the header's `alg`: wrong key type (for example `HS256`
    /// with an RSA key, the key-confusion attack) or the key's own `alg` differs.
    public static let keyAlgorithmMismatch: Reason = "key_algorithm_mismatch"
    /// No key matches the header's `kid` (or no key suits the algorithm).
    public static let keyNotFound: Reason = "key_not_found"
    /// A single key was given and its `kid` differs from the header's.
    public static let kidMismatch: Reason = "kid_mismatch"
    /// The key is marked for encryption (`use: enc`, or `key_ops` without `verify`).
    public static let keyNotForSigning: Reason = "key_not_for_signing"
    /// A JWK is malformed or holds an unusable key (short RSA modulus, point off the curve).
    public static let invalidKey: Reason = "invalid_key"
    /// A JWK has a key type or curve this library does not support (`OKP`, `P-384`, ...).
    public static let unsupportedKey: Reason = "unsupported_key"

    // Signature.
    /// The signature does not verify.
    public static let signatureInvalid: Reason = "signature_invalid"

    // Claims.
    /// The payload of a JWT is not a JSON object.
    public static let payloadNotJSON: Reason = "payload_not_json"
    /// A required claim is absent.
    public static let missingClaim: Reason = "missing_claim"
    /// `exp` is in the past (beyond the leeway).
    public static let expired: Reason = "expired"
    /// `nbf` is in the future (beyond the leeway).
    public static let notYetValid: Reason = "not_yet_valid"
    /// `iat` is in the future (beyond the leeway).
    public static let issuedInFuture: Reason = "issued_in_future"
    /// `iss` differs from the expected issuer.
    public static let issuerMismatch: Reason = "issuer_mismatch"
    /// `aud` does not contain the expected audience, or lists an untrusted one.
    public static let audienceMismatch: Reason = "audience_mismatch"
    /// `azp` is missing with several audiences, or differs from the client id.
    public static let authorizedPartyMismatch: Reason = "authorized_party_mismatch"
    /// `nonce` is absent or differs from the value sent.
    public static let nonceMismatch: Reason = "nonce_mismatch"
    /// `auth_time` is older than `max_age` allows.
    public static let authenticationTooOld: Reason = "authentication_too_old"
    /// `at_hash` does not match the access token.
    public static let accessTokenHashMismatch: Reason = "at_hash_mismatch"
  }

  /// The stable reason code.
  public var reason: Reason
  /// A readable explanation, safe to log: it never quotes tokens, signatures or secrets.
  public var message: String

  /// Creates an error.
  public init(_ reason: Reason, _ message: String) {
    self.reason = reason
    self.message = message
  }

  /// `reason: message`.
  public var description: String { "\(reason.rawValue): \(message)" }

  /// Wraps the error as ``AuthError/Code/invalidToken``.
  var asAuthError: AuthError {
    AuthError(.invalidToken, description, underlying: self)
  }
}

extension AuthError {
  /// This error naming `provider`, unless it names a provider already: how the JOSE layer,
  /// which verifies tokens for any provider, gives its failures the provider they are about.
  func naming(_ provider: ProviderID?) -> AuthError {
    guard self.provider == nil, let provider else { return self }
    var named = self
    named.provider = provider
    return named
  }

  /// The JOSE rejection behind this error, when it came from JWT/JWS/JWK verification:
  /// why an ID token did not verify (``JOSEError/Reason/expired``,
  /// ``JOSEError/Reason/nonceMismatch``, ``JOSEError/Reason/audienceMismatch``, ...).
  /// <doc:VerifyingMobileTokens> lists the reasons a backend switches over.
  ///
  /// ```swift
  /// if error.joseError?.reason == .expired { ... }
  /// if error.joseError?.reason == .nonceMismatch { ... }  // not the login you asked for
  /// ```
  public var joseError: JOSEError? { underlying as? JOSEError }
}
