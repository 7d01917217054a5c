import Foundation

extension ProviderEventReceiver {
  /// The `events` member that makes a JWT a logout token (Back-Channel Logout 1.0 §2.4).
  static let backChannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"

  /// `POST /oidc/backchannel-logout`: verifies the form's `logout_token` with the keys of the
  /// OpenID provider its `iss` names, keeps its `jti`, and ends the sessions of its `sub`
  /// (only the one whose ID token carried its `sid`, when it names one).
  func backChannelLogout(_ request: ProviderEventRequest) async -> ProviderEventResponse {
    func refuse(_ provider: ProviderID, _ why: String) -> ProviderEventResponse {
      logRefusal("oidc/backchannel-logout", why)
      report(provider, .backChannelLogout, .rejected)
      return .json(400, ["error": "invalid_request", "error_description": .string(why)])
    }
    guard let form = FormFields.parse(request.body), let token = form["logout_token"],
      !token.isEmpty
    else {
      return refuse("oidc", "The body is not a form with one 'logout_token'.")
    }
    let logout: LogoutToken
    let provider: any OpenIDEventSource
    do {
      provider = try openIDProvider(issuing: token)
      logout = try await provider.verifyLogoutToken(
        token, maximumAge: configuration.maximumTokenAge)
    } catch let refusal as EventRefusal {
      return refuse("oidc", refusal.description)
    } catch let error as AuthError where error.code == .invalidToken {
      return refuse("oidc", error.message)
    } catch {
      // The provider's keys could not be fetched: nothing was decided, the OP may retry.
      logRefusal("oidc/backchannel-logout", "\(error)")
      report("oidc", .backChannelLogout, .failed)
      return .json(
        503, ["error": "temporarily_unavailable", "error_description": "Keys unavailable."])
    }
    let id = "backchannel-logout \(logout.issuer) \(logout.tokenID)"
    do {
      guard try await firstDelivery(id, until: logout.keepUntil) else {
        return refuse(provider.id, "This logout token (its jti) was received already.")
      }
    } catch {
      report(provider.id, .backChannelLogout, .failed)
      return .json(503, ["error": "temporarily_unavailable", "error_description": "Store failed."])
    }
    do {
      let ended = try await client.endSessions(
        of: provider.id, subject: logout.subject, sessionID: logout.sessionID,
        reason: .backChannelLogout, scanLimit: configuration.maximumSessionIDScan)
      report(provider.id, .backChannelLogout, ended > 0 ? .applied : .noSession)
      return .empty(200)
    } catch let refusal as EventRefusal {
      // Too many sessions to find a sid in: logout failed (§2.8), and the OP may retry.
      await forget(id)
      return refuse(provider.id, refusal.description)
    } catch {
      await forget(id)
      report(provider.id, .backChannelLogout, .failed)
      return .json(503, ["error": "temporarily_unavailable", "error_description": "Store failed."])
    }
  }

  /// The client's OpenID provider whose issuer the token's (unverified) `iss` names: an
  /// ``OIDCProvider`` or Google's engine. Only a provider the client trusts can be named.
  func openIDProvider(issuing token: String) throws -> any OpenIDEventSource {
    let engines: [any OpenIDEventSource] = client.providers.values.compactMap {
      ($0 as? OIDCProvider) ?? ($0 as? GoogleProvider)?.engine
    }
    // With one OpenID provider there is nothing to choose: its claims policy checks `iss`,
    // and the token is parsed once instead of twice (the receiver's hot path).
    if engines.count == 1, let engine = engines.first { return engine }
    guard let jws = try? CompactJWS(parsing: token),
      let claims = try? JWSVerifier.claims(of: jws.payload),
      let issuer = claims["iss"]?.stringValue
    else {
      throw EventRefusal("The logout token is not a JWT with a string 'iss'.")
    }
    for engine in engines where engine.issues(issuer) {
      return engine
    }
    throw EventRefusal(
      code: "invalid_issuer", "No OpenID provider of this service has that issuer.")
  }
}

/// A verified logout token: what it says to end.
struct LogoutToken: Sendable {
  var issuer: String
  var tokenID: String
  var subject: String?
  var sessionID: String?
  /// Until when its `jti` must be kept: past this it would be refused as too old anyway.
  var keepUntil: Date
}

extension EventTokenIssuer {
  /// Verifies a Back-Channel Logout token (OpenID Connect Back-Channel Logout 1.0 §2.6):
  /// signed with the provider's keys by one of the configured algorithms (never `none`),
  /// `typ` `logout+jwt` or `JWT` if given, `iss` the issuer, `aud` containing the client,
  /// `iat` at most `maximumAge` old, `exp` not passed if given, a `jti`, the back-channel
  /// logout member in `events` (a JSON object), a `sub` or a `sid`, and no `nonce` (so an ID
  /// token can never pass for one).
  func verifyLogoutToken(_ token: String, maximumAge: TimeInterval) async throws -> LogoutToken {
    let jws = try await JWSVerifier(allowedAlgorithms: algorithms)
      .verify(token, resolver: keys)
    if case .string(let type)? = jws.header["typ"] {
      let lowered = type.lowercased()
      guard ["logout+jwt", "application/logout+jwt", "jwt"].contains(lowered) else {
        throw EventRefusal("The token's typ '\(type)' is not logout+jwt.")
      }
    }
    let claims: [String: JSONValue]
    do throws(JOSEError) {
      claims = try JWSVerifier.claims(of: jws.payload)
    } catch {
      throw error.asAuthError
    }
    var policy = JWTClaimsPolicy(
      issuer: issuer, audience: clientID, leeway: leeway,
      requiredClaims: ["iss", "aud", "iat", "jti", "events"])
    policy.alternativeIssuers = alternativeIssuers
    policy.alternativeAudiences = alternativeAudiences
    policy.maximumTokenAge = maximumAge
    try policy.check(.object(claims), algorithm: jws.algorithm, now: clock.coarseWallTime)
    guard case .object(let events)? = claims["events"],
      case .object = events[ProviderEventReceiver.backChannelLogoutEvent]
    else {
      throw EventRefusal(
        "The token's 'events' is not an object whose back-channel logout member is an object.")
    }
    guard claims["nonce"] == nil else {
      throw EventRefusal("A logout token must not carry a nonce.")
    }
    let subject = claims["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    let sessionID = claims["sid"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    guard subject != nil || sessionID != nil else {
      throw EventRefusal("The logout token names neither a 'sub' nor a 'sid'.")
    }
    guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= 256,
      let issuedAt = claims["iat"]?.doubleValue, let issuer = claims["iss"]?.stringValue
    else {
      throw EventRefusal("The logout token's 'jti' is not a string of 1 to 256 bytes.")
    }
    return LogoutToken(
      issuer: issuer, tokenID: jti, subject: subject, sessionID: sessionID,
      keepUntil: Date(timeIntervalSince1970: issuedAt + maximumAge + 2 * leeway))
  }
}

extension LoginClient {
  /// Ends the sessions of `provider` that an event names, through the store (so every
  /// replica ends them with `reason`), without revoking anything: the provider ended the
  /// grant itself. With `subject`, the session of that account, unless `sessionID` is given
  /// and its ID token recorded another `sid`; with only `sessionID`, every stored session of
  /// the provider whose ID token recorded it — a scan of the provider's stored sessions (no
  /// store keeps a `sid` index), refused with an ``EventRefusal`` when the provider has more
  /// than `scanLimit` of them.
  ///
  /// - Returns: How many sessions ended.
  func endSessions(
    of provider: ProviderID, subject: String?, sessionID: String?, reason: SignOutReason,
    scanLimit: Int = .max
  ) async throws -> Int {
    var keys: [SessionKey] = []
    if let subject {
      let key = SessionKey(provider: provider, subject: subject)
      if let sessionID {
        if let stored = try await environment.store.load(key),
          Self.sessionID(of: stored).map({ $0 == sessionID }) ?? true
        {
          keys.append(key)
        }
      } else {
        keys.append(key)
      }
    } else if let sessionID {
      // No sid index: a sid-only token scans the provider's stored sessions, boundedly.
      let sessions = try await environment.store.loadAll().sessions
        .filter { $0.key.provider == provider }
      guard sessions.count <= scanLimit else {
        throw EventRefusal(
          "A logout token with only a 'sid' would scan \(sessions.count) sessions, over the "
            + "limit of \(scanLimit); send 'sub' too.")
      }
      keys = sessions.filter { Self.sessionID(of: $0) == sessionID }.map(\.key)
    }
    var ended = 0
    for key in keys where try await signOut(key, reason: reason, revoke: false) != nil {
      ended += 1
    }
    return ended
  }

  /// Ends the stored sessions of `provider` whose refresh token is the one `token` names (a
  /// token-level event: no index, so the provider's stored sessions are scanned).
  ///
  /// - Returns: How many sessions ended.
  func endSessions(
    of provider: ProviderID, holding token: RefreshTokenIdentifier, reason: SignOutReason
  ) async throws -> Int {
    let keys = try await environment.store.loadAll().sessions
      .filter { session in
        session.key.provider == provider
          && (session.credential.refreshToken.map { token.matches($0.revealed) } ?? false)
      }
      .map(\.key)
    var ended = 0
    for key in keys where try await signOut(key, reason: reason, revoke: false) != nil {
      ended += 1
    }
    return ended
  }

  /// The `sid` the session's ID token recorded, if any.
  static func sessionID(of session: StoredSession) -> String? {
    session.credential.idToken.flatMap { StoredIDToken.decoding($0.revealed)?.claims["sid"] }?
      .stringValue
  }
}
