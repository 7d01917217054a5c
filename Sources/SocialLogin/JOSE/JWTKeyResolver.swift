/// Supplies the keys that may verify a token, given its (unverified) header.
///
/// The verifier still pins the algorithm: a resolver only narrows down *which* keys to try.
/// Conformers: ``StaticKeyResolver`` (a fixed JWK or JWK Set), ``HMACSecretResolver`` (a shared
/// secret, for example LINE's channel secret), ``JWKSCache`` (a provider's `jwks_uri`) and
/// ``HeaderKeyResolver`` (chooses between two resolvers by whether the header has a `kid`).
///
/// ```swift
/// struct MyResolver: JWTKeyResolver {
///   func candidateKeys(for header: JOSEHeader) async throws(AuthError) -> [JWK] {
///     [try await loadKey(named: header.keyID)]
///   }
/// }
/// ```
public protocol JWTKeyResolver: Sendable {
  /// The keys to try for a token with `header`.
  ///
  /// Throw ``AuthError/Code/invalidToken`` with ``JOSEError/Reason/keyNotFound`` when no key
  /// fits, or a transport error when keys could not be fetched.
  func candidateKeys(for header: JOSEHeader) async throws(AuthError) -> [JWK]
}

/// A resolver over a fixed key or key set.
///
/// ```swift
/// let resolver = StaticKeyResolver(try JWKSet(parsing: jwksBytes))
/// ```
public struct StaticKeyResolver: JWTKeyResolver {
  private enum Source: Sendable {
    case single(JWK)
    case set(JWKSet)
  }

  private let source: Source

  /// Resolves every header to `key` (a `kid` in the header must match the key's, if it has one).
  public init(_ key: JWK) { source = .single(key) }

  /// Resolves headers to the keys of `set` (by `kid` when the header has one).
  public init(_ set: JWKSet) { source = .set(set) }

  /// The matching keys; see ``JWTKeyResolver/candidateKeys(for:)``.
  public func candidateKeys(for header: JOSEHeader) async throws(AuthError) -> [JWK] {
    try keys(for: header)
  }

  /// The synchronous form of ``candidateKeys(for:)``.
  public func keys(for header: JOSEHeader) throws(AuthError) -> [JWK] {
    do throws(JOSEError) {
      switch source {
      case .single(let key): return try KeySelection.single(key, header)
      case .set(let set): return try KeySelection.select(set.keys, header)
      }
    } catch {
      throw error.asAuthError
    }
  }
}

/// A resolver that offers one shared-secret HMAC key.
///
/// LINE Login signs web-login ID tokens with `HS256` keyed by the channel secret:
///
/// ```swift
/// let resolver = HMACSecretResolver(secret: channelSecret, algorithm: .hs256)
/// ```
public struct HMACSecretResolver: JWTKeyResolver {
  private let key: JWK

  /// Creates a resolver whose key is the UTF-8 bytes of `secret`, restricted to `algorithm`.
  public init(secret: Secret, algorithm: JWSAlgorithm = .hs256) {
    key = JWK.symmetric(Array(secret.revealed.utf8), algorithm: algorithm)
  }

  /// The secret's key.
  public func candidateKeys(for header: JOSEHeader) async throws(AuthError) -> [JWK] {
    [key]
  }
}

/// Chooses a resolver by the header: one for headers with a `kid`, another for headers
/// without.
///
/// This is LINE Login's rule (`reference/providers.md` §3): ID tokens from native apps, the
/// LINE SDK and LIFF are `ES256` with a `kid` from `https://api.line.me/oauth2/v2.1/certs`;
/// web-login ID tokens are `HS256` keyed with the channel secret and carry no `kid`. Pair it
/// with an allowed-algorithm list of `[.es256, .hs256]`: the keys themselves still pin the
/// algorithm, so an `HS256` header with a `kid` (or `ES256` without) is refused.
///
/// ```swift
/// let certs = JWKSCache(url: URL(string: "https://api.line.me/oauth2/v2.1/certs")!, transport: transport)
/// let resolver = HeaderKeyResolver.line(channelSecret: secret, certificates: certs)
/// ```
public struct HeaderKeyResolver: JWTKeyResolver {
  private let withKeyID: any JWTKeyResolver
  private let withoutKeyID: any JWTKeyResolver

  /// Creates a resolver that asks `withKeyID` when the header has a `kid`, else `withoutKeyID`.
  public init(withKeyID: any JWTKeyResolver, withoutKeyID: any JWTKeyResolver) {
    self.withKeyID = withKeyID
    self.withoutKeyID = withoutKeyID
  }

  /// LINE Login: `kid` → the JWKS `certificates`; no `kid` → `HS256` with the channel secret.
  public static func line(channelSecret: Secret, certificates: any JWTKeyResolver)
    -> HeaderKeyResolver
  {
    HeaderKeyResolver(
      withKeyID: certificates,
      withoutKeyID: HMACSecretResolver(secret: channelSecret, algorithm: .hs256))
  }

  /// The keys of the resolver the header selects.
  public func candidateKeys(for header: JOSEHeader) async throws(AuthError) -> [JWK] {
    if header.keyID != nil {
      return try await withKeyID.candidateKeys(for: header)
    }
    return try await withoutKeyID.candidateKeys(for: header)
  }
}

/// A resolver that has no keys to give, because of how the SDK is configured: it throws
/// `error` (typically ``AuthError/Code/configuration``) for every header.
struct UnavailableKeyResolver: JWTKeyResolver {
  let error: AuthError

  func candidateKeys(for header: JOSEHeader) async throws(AuthError) -> [JWK] {
    throw error
  }
}
