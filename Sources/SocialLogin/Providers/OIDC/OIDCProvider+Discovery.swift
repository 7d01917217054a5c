import Foundation

extension OIDCProvider {
  /// The discovered (or configured) endpoints and the clients built on them; one fetch serves
  /// every concurrent caller, and the result is reused for the discovery TTL.
  func current() async throws -> Discovered {
    try requireClientID()
    if let discovered,
      clock.wallTime.timeIntervalSince(discovered.fetchedAt) < configuration.discoveryTTL
    {
      return discovered
    }
    if let discovery { return try await discovery.value }
    let task = Task { try await self.discover() }
    discovery = task
    defer { discovery = nil }
    let fresh = try await task.value
    discovered = fresh
    revocationKnown.withLock { $0 = fresh.metadata.revocationEndpoint != nil }
    deviceGrantKnown.withLock { $0 = fresh.metadata.deviceAuthorizationEndpoint != nil }
    return fresh
  }

  private func discover() async throws -> Discovered {
    try configuration.issuer.requireHTTPSOrLoopback("issuer", provider: id)
    let metadata: OIDCProviderMetadata
    if let configured = configuration.metadata {
      metadata = configured
    } else {
      let url = OIDCProviderMetadata.discoveryURL(for: configuration.issuer)
      let response = try await transport.send(
        TransportRequest(url: url, headers: ["Accept": "application/json"], timeout: .seconds(15)))
      guard response.status == 200 else {
        throw AuthError(
          response.status >= 500 || response.status == 429 ? .serverUnavailable : .invalidResponse,
          "Discovery at \(url.absoluteString) answered HTTP \(response.status).",
          provider: id, httpStatus: response.status,
          retryAfter: response.retryAfter(now: clock.wallTime))
      }
      metadata = try response.decodeJSON(OIDCProviderMetadata.self)
    }
    // OpenID Connect Discovery §4.3: the document must name exactly the issuer we asked.
    guard metadata.issuer == configuration.issuer.absoluteString else {
      throw AuthError(
        .configuration,
        "Discovery names issuer '\(metadata.issuer)', not the configured "
          + "'\(configuration.issuer.absoluteString)'.",
        provider: id)
    }
    try Self.requireSecureEndpoints(of: metadata, provider: id)
    let supportsS256 = metadata.codeChallengeMethodsSupported?.contains("S256") ?? true
    let oauth = OAuth2Client(
      provider: id,
      configuration: OAuth2Configuration(
        clientID: configuration.clientID,
        clientSecret: configuration.clientSecret,
        clientAuthentication: configuration.clientAuthentication,
        authorizationEndpoint: metadata.authorizationEndpoint,
        tokenEndpoint: metadata.tokenEndpoint,
        revocationEndpoint: metadata.revocationEndpoint,
        deviceAuthorizationEndpoint: metadata.deviceAuthorizationEndpoint,
        scopes: configuration.scopes,
        pkce: supportsS256 ? .s256 : .disabled,
        usesNonce: true,
        additionalAuthorizationParameters: configuration.additionalAuthorizationParameters,
        expectedIssuer: metadata.issuer,
        requiresIssuerInCallback: metadata.authorizationResponseIssParameterSupported ?? false),
      transport: transport, clock: clock)
    let keys = JWKSCache(url: metadata.jwksURI, transport: transport, clock: clock)
    var expectations = IDTokenValidator.Configuration(
      issuer: metadata.issuer, clientID: configuration.clientID,
      allowedAlgorithms: configuration.allowedAlgorithms, leeway: configuration.leeway,
      provider: id)
    expectations.alternativeIssuers = configuration.alternativeIssuers
    expectations.alternativeAudiences = configuration.alternativeAudiences
    let validator = IDTokenValidator(configuration: expectations, keys: keys, clock: clock)
    return Discovered(
      metadata: metadata, oauth: oauth, validator: validator, keys: keys,
      fetchedAt: clock.wallTime)
  }

  /// Every endpoint the metadata names must be https (or loopback http): tokens and keys
  /// travel over them.
  static func requireSecureEndpoints(of metadata: OIDCProviderMetadata, provider: ProviderID)
    throws(AuthError)
  {
    let endpoints: [(String, URL?)] = [
      ("authorization endpoint", metadata.authorizationEndpoint),
      ("token endpoint", metadata.tokenEndpoint),
      ("userinfo endpoint", metadata.userinfoEndpoint),
      ("JWKS URL", metadata.jwksURI),
      ("revocation endpoint", metadata.revocationEndpoint),
      ("device authorization endpoint", metadata.deviceAuthorizationEndpoint),
      ("introspection endpoint", metadata.introspectionEndpoint),
    ]
    for case (let name, let url?) in endpoints {
      try url.requireHTTPSOrLoopback(name, provider: provider)
    }
  }

}
