import Foundation

/// A server-to-server notification from Apple, verified: what happened to a user's Apple ID
/// and the app.
///
/// Apple POSTs `{"payload": "<JWT>"}` to the notification endpoint registered for the app;
/// the JWT is signed by Apple (its JWKS) and its `events` claim is a JSON string.
public struct AppleServerNotification: Hashable, Sendable {
  /// What happened.
  public enum Kind: Hashable, Sendable {
    /// The user stopped forwarding email from the private relay (`email-disabled`).
    case emailDisabled
    /// The user started forwarding email from the private relay again (`email-enabled`).
    case emailEnabled
    /// The user stopped using their Apple ID with the app (`consent-revoked`): their sessions
    /// end with ``SignOutReason/consentRevoked``.
    case consentRevoked
    /// The user deleted their Apple account (`account-delete`; Apple's current article spells
    /// it `account-deleted`, and both are read): their sessions end with
    /// ``SignOutReason/accountDeleted``.
    case accountDelete
    /// A type Apple added after this SDK was written, kept as sent.
    case other(String)

    /// The kind named by `type`.
    init(type: String) {
      switch type {
      case "email-disabled": self = .emailDisabled
      case "email-enabled": self = .emailEnabled
      case "consent-revoked": self = .consentRevoked
      case "account-delete", "account-deleted": self = .accountDelete
      default: self = .other(type)
      }
    }

    /// The reason the user's sessions end for, or `nil` when they go on.
    public var signOutReason: SignOutReason? {
      switch self {
      case .consentRevoked: return .consentRevoked
      case .accountDelete: return .accountDeleted
      default: return nil
      }
    }
  }

  /// What happened.
  public var kind: Kind
  /// The user's Apple subject (the ID tokens' `sub`).
  public var subject: String
  /// The email the event is about (relay events), if any.
  public var email: String?
  /// Whether that email is a private relay address, if said.
  public var isPrivateEmail: Bool?
  /// When it happened, if said (`event_time`, milliseconds since 1970).
  public var eventTime: Date?
  /// The client id the notification was sent for (its `aud`).
  public var clientID: String
  /// The notification's unique id (its `jti`): a second delivery of the same notification
  /// carries it again, and ``LoginClient/handleAppleNotification(body:seen:)`` acts on it once.
  public var notificationID: String = ""
  /// When the notification stops being valid (its `exp`; Apple sets it a day after `iat`).
  public var expiresAt = Date.distantPast
  /// When Apple issued the notification (its `iat`): how old it is bounds how long its `jti`
  /// must be remembered.
  public var issuedAt = Date.distantPast

  /// The key of the user's session.
  public var sessionKey: SessionKey { SessionKey(provider: .apple, subject: subject) }
}

extension AppleProvider {
  /// Verifies the body Apple posted to the notification endpoint (`{"payload": "<JWT>"}`, or
  /// a form with `payload`) and reads its event.
  ///
  /// The JWT must be RS256 from Apple's JWKS, `iss` `https://appleid.apple.com`, `aud` one of
  /// ``AppleConfiguration/clientIDs``, with `iat`, an `exp` in the future (a captured
  /// notification is worthless once it passed), a `jti`, and an `events` claim (a JSON
  /// string, or an object) holding `type` and `sub`.
  /// ``LoginClient/handleAppleNotification(body:seen:)`` also acts on each notification once
  /// and ends the user's session for `consent-revoked` and `account-delete`.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` for a payload that does not verify;
  ///   ``AuthError/Code/invalidResponse`` for a body without a payload or an `events` claim
  ///   that is not an event; transient errors when the key set could not be fetched.
  public func verifyNotification(body: [UInt8]) async throws -> AppleServerNotification {
    guard let payload = Self.notificationPayload(body) else {
      throw AuthError(
        .invalidResponse,
        "The Apple notification body has no 'payload' (a JSON object or form field).",
        provider: .apple)
    }
    let jws = try await JWSVerifier(allowedAlgorithms: [.rs256]).verify(payload, resolver: keys)
    let claims: [String: JSONValue]
    do throws(JOSEError) {
      claims = try JWSVerifier.claims(of: jws.payload)
    } catch {
      throw error.asAuthError.naming(.apple)
    }
    let audiences = VerifiedJWT.audiences(in: .object(claims)) ?? []
    guard let clientID = configuration.clientIDs.first(where: audiences.contains) else {
      throw JOSEError(.audienceMismatch, "The notification is for another app.")
        .asAuthError.naming(.apple)
    }
    var policy = JWTClaimsPolicy(
      issuer: AppleConfiguration.issuer, audience: clientID, leeway: configuration.leeway,
      requiredClaims: ["iss", "aud", "iat", "exp", "jti", "events"])
    policy.rejectsUntrustedAudiences = true
    do throws(AuthError) {
      try policy.check(.object(claims), algorithm: .rs256, now: clock.coarseWallTime)
    } catch {
      throw error.naming(.apple)
    }
    guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= 256,
      let exp = claims["exp"]?.doubleValue, let iat = claims["iat"]?.doubleValue
    else {
      throw AuthError(
        .invalidResponse,
        "The Apple notification's 'jti' is not a string of 1 to 256 bytes, or its 'exp' or "
          + "'iat' is not a number.",
        provider: .apple)
    }
    var notification = try Self.notification(events: claims["events"], clientID: clientID)
    notification.notificationID = jti
    notification.expiresAt = Date(timeIntervalSince1970: exp)
    notification.issuedAt = Date(timeIntervalSince1970: iat)
    return notification
  }

  /// The event of an `events` claim: a JSON string (as Apple sends it) or an object.
  static func notification(events: JSONValue?, clientID: String) throws(AuthError)
    -> AppleServerNotification
  {
    var event: [String: JSONValue]?
    switch events {
    case .string(let text)?:
      event = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.objectValue
    case .object(let object)?:
      event = object
    default:
      event = nil
    }
    guard let event, let type = event["type"]?.stringValue, !type.isEmpty,
      let subject = event["sub"]?.stringValue, !subject.isEmpty
    else {
      throw AuthError(
        .invalidResponse,
        "The Apple notification's 'events' claim is not an event with a type and a subject.",
        provider: .apple)
    }
    return AppleServerNotification(
      kind: AppleServerNotification.Kind(type: type), subject: subject,
      email: event["email"]?.stringValue, isPrivateEmail: flag(event["is_private_email"]),
      eventTime: event["event_time"]?.doubleValue.map {
        Date(timeIntervalSince1970: $0 / 1000)
      },
      clientID: clientID)
  }

  /// The `payload` of a JSON body, or of a form body.
  static func notificationPayload(_ body: [UInt8]) -> String? {
    if let object = (try? JSONDecoder().decode(JSONValue.self, from: Data(body)))?.objectValue {
      return object["payload"]?.stringValue
    }
    let text = String(decoding: body, as: UTF8.self)
    return (try? AuthorizationCallback(formBody: text).value("payload")) ?? nil
  }
}
