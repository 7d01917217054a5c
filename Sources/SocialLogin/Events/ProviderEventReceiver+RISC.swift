import Foundation
import SocialLoginCrypto

extension ProviderEventReceiver {
  /// Google's Cross-Account Protection event types and what each does.
  static let riscEvents: [String: (ProviderEventKind, SignOutReason?)] = [
    "https://schemas.openid.net/secevent/risc/event-type/sessions-revoked":
      (.sessionsRevoked, .providerSessionsRevoked),
    "https://schemas.openid.net/secevent/oauth/event-type/tokens-revoked":
      (.tokensRevoked, .providerTokensRevoked),
    "https://schemas.openid.net/secevent/oauth/event-type/token-revoked":
      (.tokensRevoked, .providerTokensRevoked),
    "https://schemas.openid.net/secevent/risc/event-type/account-disabled":
      (.accountDisabled, .accountDisabled),
    "https://schemas.openid.net/secevent/risc/event-type/account-purged":
      (.accountPurged, .accountDeleted),
    "https://schemas.openid.net/secevent/risc/event-type/account-enabled": (.accountEnabled, nil),
    "https://schemas.openid.net/secevent/risc/event-type/account-credential-change-required":
      (.credentialChangeRequired, nil),
    "https://schemas.openid.net/secevent/risc/event-type/verification": (.verification, nil),
  ]

  /// `POST /google/risc`: a Security Event Token (RFC 8417) pushed by Google (RFC 8935),
  /// verified with Google's keys; 202 once its events are applied, 400 with the RFC 8935
  /// error body when it does not verify. A redelivered SET (its `jti` seen) is answered 202
  /// and changes nothing, as RFC 8935 transmitters redeliver what they think was lost.
  func securityEvent(_ request: ProviderEventRequest) async -> ProviderEventResponse {
    func refuse(_ refusal: EventRefusal, _ kind: ProviderEventKind = .unknown)
      -> ProviderEventResponse
    {
      logRefusal("google/risc", refusal.description)
      report(.google, kind, .rejected)
      return .json(
        400, ["err": .string(refusal.code), "description": .string(refusal.description)])
    }
    guard let google = client.providers[.google] as? GoogleProvider else {
      return refuse(EventRefusal(code: "invalid_issuer", "This service has no Google provider."))
    }
    let token = String(decoding: request.body, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let event: SecurityEvent
    do {
      event = try await google.engine.verifySecurityEvent(
        token, maximumAge: configuration.maximumSecurityEventAge)
    } catch let refusal as EventRefusal {
      return refuse(refusal)
    } catch let error as AuthError where error.code == .invalidToken {
      return refuse(EventRefusal(error: error))
    } catch {
      logRefusal("google/risc", "\(error)")
      report(.google, .unknown, .failed)
      return .json(503, ["err": "temporarily_unavailable", "description": "Keys unavailable."])
    }
    let kind = event.kind
    let id = "risc \(event.issuer) \(event.tokenID)"
    do {
      guard try await firstDelivery(id, until: event.keepUntil) else {
        report(.google, kind, .replayed)
        return .empty(202)
      }
    } catch {
      report(.google, kind, .failed)
      return .json(503, ["err": "temporarily_unavailable", "description": "Store failed."])
    }
    guard let reason = event.reason, event.subject != nil || event.refreshToken != nil else {
      report(.google, kind, .acknowledged)
      return .empty(202)
    }
    do {
      let ended: Int
      if let subject = event.subject {
        ended = try await client.endSessions(
          of: .google, subject: subject, sessionID: nil, reason: reason)
      } else if let token = event.refreshToken {
        ended = try await client.endSessions(of: .google, holding: token, reason: reason)
      } else {
        ended = 0
      }
      report(.google, kind, ended > 0 ? .applied : .noSession)
      return .empty(202)
    } catch {
      await forget(id)
      report(.google, kind, .failed)
      return .json(503, ["err": "temporarily_unavailable", "description": "Store failed."])
    }
  }
}

/// A verified Security Event Token from Google: its first known event.
struct SecurityEvent: Sendable {
  var issuer: String
  var tokenID: String
  var kind: ProviderEventKind
  var reason: SignOutReason?
  /// The Google subject the event is about, when it names one (`iss-sub` or
  /// `id_token_claims`); a token-level event's subject (`oauth_token`) names none.
  var subject: String?
  /// A token-level event's refresh token (`oauth_token` subject), as Google identifies it.
  var refreshToken: RefreshTokenIdentifier?
  var keepUntil: Date
}

/// How Google names a refresh token in a token-level event: its first 16 characters
/// (`prefix`), or the base64 of SHA-512 applied twice (`hash_base64_sha512_sha512`).
struct RefreshTokenIdentifier: Sendable {
  var algorithm: String
  var token: String

  /// Whether `refreshToken` is the token named.
  func matches(_ refreshToken: String) -> Bool {
    switch algorithm {
    case "prefix":
      guard token.utf8.count == 16 else { return false }
      return ConstantTime.equals(Array(refreshToken.utf8.prefix(16)), Array(token.utf8))
    case "hash_base64_sha512_sha512":
      let digest = SHA512.hash(SHA512.hash(Array(refreshToken.utf8)))
      let named = Array(token.utf8)
      return ConstantTime.equals(Array(Base64.encode(digest).utf8), named)
        || ConstantTime.equals(Array(Base64URL.encode(digest).utf8), named)
    default:
      return false
    }
  }
}

extension EventTokenIssuer {
  /// Verifies a Security Event Token with the provider's keys (RS256 or whatever the
  /// configuration allows; never `none`): `typ` `secevent+jwt` or `JWT` if given, `iss` the
  /// issuer (Google's SETs spell it with a trailing `/`, so both spellings are read), `aud`
  /// containing the client or one of its alternative audiences, `iat` at most `maximumAge`
  /// old, a `jti`, an `events` object, and no `nonce`. `exp` is ignored, as RFC 8417 SETs
  /// normally have none.
  func verifySecurityEvent(_ token: String, maximumAge: TimeInterval) async throws
    -> SecurityEvent
  {
    let jws = try await JWSVerifier(allowedAlgorithms: algorithms)
      .verify(token, resolver: keys)
    if case .string(let type)? = jws.header["typ"] {
      let lowered = type.lowercased()
      guard ["secevent+jwt", "application/secevent+jwt", "jwt"].contains(lowered) else {
        throw EventRefusal("The token's typ '\(type)' is not secevent+jwt.")
      }
    }
    var claims: [String: JSONValue]
    do throws(JOSEError) {
      claims = try JWSVerifier.claims(of: jws.payload)
    } catch {
      throw error.asAuthError
    }
    claims["exp"] = nil
    var policy = JWTClaimsPolicy(
      issuer: issuer, audience: clientID, leeway: leeway,
      requiredClaims: ["iss", "aud", "iat", "jti", "events"])
    policy.alternativeIssuers = alternativeIssuers.union([
      issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer + "/"
    ])
    policy.alternativeAudiences = alternativeAudiences
    policy.maximumTokenAge = maximumAge
    try policy.check(.object(claims), algorithm: jws.algorithm, now: clock.coarseWallTime)
    guard claims["nonce"] == nil else {
      throw EventRefusal("A Security Event Token must not carry a nonce.")
    }
    guard case .object(let events)? = claims["events"], !events.isEmpty,
      events.values.allSatisfy({ $0.objectValue != nil })
    else {
      throw EventRefusal("The token's 'events' is not an object of event objects.")
    }
    guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= 256,
      let issuedAt = claims["iat"]?.doubleValue, let tokenIssuer = claims["iss"]?.stringValue
    else {
      throw EventRefusal("The token's 'jti' is not a string of 1 to 256 bytes.")
    }
    // The first event this SDK knows decides; Google sends one event per SET.
    let known = events.keys.sorted().first { ProviderEventReceiver.riscEvents[$0] != nil }
    var event = SecurityEvent(
      issuer: tokenIssuer, tokenID: jti, kind: .unknown, reason: nil, subject: nil,
      keepUntil: Date(timeIntervalSince1970: issuedAt + maximumAge + 2 * leeway))
    if let known, let (kind, reason) = ProviderEventReceiver.riscEvents[known] {
      event.kind = kind
      event.reason = reason
      let subject = events[known]?["subject"]
      switch subject?["subject_type"]?.stringValue {
      case "iss-sub"?, "id_token_claims"?:
        event.subject = subject?["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
      case "oauth_token"?:
        if subject?["token_type"]?.stringValue == "refresh_token",
          let algorithm = subject?["token_identifier_alg"]?.stringValue,
          let token = subject?["token"]?.stringValue, !token.isEmpty, token.utf8.count <= 512
        {
          event.refreshToken = RefreshTokenIdentifier(algorithm: algorithm, token: token)
        }
      default:
        break
      }
      if reason != nil, event.subject == nil, event.refreshToken == nil {
        throw EventRefusal("The \(known) event names no subject with a 'sub' or a refresh token.")
      }
    }
    return event
  }
}
