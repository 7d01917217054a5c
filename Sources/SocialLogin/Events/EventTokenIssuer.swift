import Foundation

/// What verifies the event tokens an OpenID provider pushes (Security Event Tokens and
/// Back-Channel Logout tokens): its issuer, the client, the keys and the clock, taken from a
/// hand-written ``OIDCProvider`` or from a described engine (Google's).
struct EventTokenIssuer: Sendable {
  /// The provider, for errors.
  var provider: ProviderID
  /// The issuer tokens must name.
  var issuer: String
  /// Other spellings of the issuer accepted (Google's `accounts.google.com`).
  var alternativeIssuers: Set<String>
  /// The client id `aud` must contain.
  var clientID: String
  /// Other client ids `aud` may contain (an app's).
  var alternativeAudiences: Set<String>
  /// The accepted signature algorithms.
  var algorithms: Set<JWSAlgorithm>
  /// Clock-skew tolerance, in seconds.
  var leeway: TimeInterval
  /// The provider's signing keys.
  var keys: JWKSCache
  /// The clock.
  var clock: any AuthClock
}

/// A provider whose pushed logout tokens the events receiver verifies.
protocol OpenIDEventSource: Sendable {
  /// The provider's id.
  var id: ProviderID { get }
  /// Whether `issuer` (a token's unverified `iss`) names this provider.
  func issues(_ issuer: String) -> Bool
  /// Verifies a Back-Channel Logout token with the provider's keys.
  func verifyLogoutToken(_ token: String, maximumAge: TimeInterval) async throws -> LogoutToken
}

extension OIDCProvider: OpenIDEventSource {
  nonisolated func issues(_ issuer: String) -> Bool {
    configuration.issuer.absoluteString == issuer
      || configuration.alternativeIssuers.contains(issuer)
  }

  /// The discovered issuer and keys.
  func eventTokenIssuer() async throws -> EventTokenIssuer {
    let discovered = try await current()
    return EventTokenIssuer(
      provider: id, issuer: discovered.metadata.issuer,
      alternativeIssuers: configuration.alternativeIssuers, clientID: configuration.clientID,
      alternativeAudiences: configuration.alternativeAudiences,
      algorithms: configuration.allowedAlgorithms, leeway: configuration.leeway,
      keys: discovered.keys, clock: clock)
  }

  func verifyLogoutToken(_ token: String, maximumAge: TimeInterval) async throws -> LogoutToken {
    try await eventTokenIssuer().verifyLogoutToken(token, maximumAge: maximumAge)
  }
}

extension DescribedProvider: OpenIDEventSource {
  nonisolated func issues(_ issuer: String) -> Bool {
    configuration.description.idToken?.issuers.contains(issuer) ?? false
  }

  /// The description's first issuer (the others as alternatives), the client id and app
  /// audiences, and the JWKS.
  ///
  /// - Throws: ``AuthError/Code/unsupported`` for a description without JWKS-verified ID
  ///   tokens.
  func eventTokenIssuer() throws(AuthError) -> EventTokenIssuer {
    guard let rules = description.idToken, let issuer = rules.issuers.first, let keys else {
      throw AuthError(
        .unsupported, "\(description.displayName) signs no event tokens with a JWKS.",
        provider: id)
    }
    return EventTokenIssuer(
      provider: id, issuer: issuer, alternativeIssuers: Set(rules.issuers.dropFirst()),
      clientID: configuration.clientID, alternativeAudiences: Set(configuration.audiences),
      algorithms: Set(rules.algorithms.compactMap(JWSAlgorithm.init(rawValue:))),
      leeway: configuration.leeway, keys: keys, clock: clock)
  }

  func verifyLogoutToken(_ token: String, maximumAge: TimeInterval) async throws -> LogoutToken {
    try await eventTokenIssuer().verifyLogoutToken(token, maximumAge: maximumAge)
  }

}
