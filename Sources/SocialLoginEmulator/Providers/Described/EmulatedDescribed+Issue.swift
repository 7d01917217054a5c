import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// Token answers and ID tokens: `expires_in` as the description writes it, the refresh token
/// only when this grant issues or rotates one, ID tokens by the description's ``IDTokenRules``.
extension EmulatedDescribed {
  /// What one token answer issues.
  struct TokenIssue {
    var user: EmulatedUser
    var scopes: [String]
    var grantID: String
    var nonce: String?
    /// The `{tenant}` of the request (Microsoft), kept on the tokens.
    var tenant: String?
    /// Whether the answer carries a (new) refresh token.
    var refresh: Bool
  }

  func issueTokens(_ issue: TokenIssue, _ request: EmulatorRequest) -> HTTPResponse {
    let now = request.now
    let lifetimes = environment.lifetimes(for: name)
    var extra: [String: String] = [:]
    extra["tenant"] = issue.tenant?.lowercased()
    let access = environment.issueToken(
      .access, prefix: name.rawValue + "-at-", provider: name, clientID: app.clientID,
      user: issue.user, scopes: issue.scopes, grantID: issue.grantID, now: now,
      lifetime: lifetimes.accessToken, extra: extra)
    let expiresIn = lifetimes.accessToken.rounded(.down)
    var body: [String: JSONValue] = [
      "access_token": .string(access), "token_type": .string(dialect.tokenType),
      "expires_in": description.tokenAnswer.expiresIn == .numberOrString
        ? .string(String(Int(expiresIn))) : .number(expiresIn),
    ]
    if !issue.scopes.isEmpty {
      body["scope"] = .string(issue.scopes.joined(separator: dialect.answerScopeSeparator))
    }
    if issue.refresh {
      let refresh = environment.issueToken(
        .refresh, prefix: name.rawValue + "-rt-", provider: name, clientID: app.clientID,
        user: issue.user, scopes: issue.scopes, grantID: issue.grantID, now: now,
        lifetime: lifetimes.refreshToken, extra: extra)
      body["refresh_token"] = .string(refresh)
      if dialect.refreshExpiresIn, let lifetime = lifetimes.refreshToken {
        body["refresh_token_expires_in"] = .number(lifetime.rounded(.down))
      }
    }
    if description.idToken != nil, issue.scopes.contains("openid") {
      do {
        body["id_token"] = .string(try idToken(issue, accessToken: access, now: now))
      } catch {
        return tokenError(
          .badRequest, "server_error", "The emulator cannot sign ID tokens.", request, status: 500)
      }
    }
    return answer(body, request)
  }

  /// The ID token's issuer: the description's first issuer template with `{tenantid}` (the
  /// token's `tid`) and the description's parameters substituted.
  func issuer(tenant: String?) -> String {
    var issuer = description.idToken?.issuers.first ?? ""
    issuer = issuer.replacingOccurrences(of: "{tenantid}", with: tenantID(tenant))
    if let tenant { issuer = issuer.replacingOccurrences(of: "{tenant}", with: tenant) }
    return issuer
  }

  /// An ID token as the provider issues it: `aud` a string or (Yahoo! JAPAN) an array,
  /// `at_hash`, `nonce` when the login had one, the tenant claim, and the identity claims at
  /// the description's pointers when the identity comes from the ID token.
  func idToken(_ issue: TokenIssue, accessToken: String, now: Date) throws -> String {
    let iat = now.timeIntervalSince1970.rounded(.down)
    let user = issue.user
    var claims: [String: JSONValue] = [
      "iss": .string(issuer(tenant: issue.tenant)), "sub": .string(user.subject(at: name)),
      "aud": dialect.audienceIsArray ? [.string(app.clientID)] : .string(app.clientID),
      "iat": .number(iat), "auth_time": .number(iat),
      "exp": .number(iat + environment.lifetimes(for: name).idToken),
      "at_hash": .string(emulatorAccessTokenHash(accessToken)),
    ]
    if let nonce = issue.nonce { claims["nonce"] = .string(nonce) }
    if let claim = description.idToken?.tenantClaim {
      claims[claim] = .string(tenantID(issue.tenant))
    }
    if description.identity.endpoint == nil {
      var document = ExactJSON.object([:])
      writeIdentity(of: user, into: &document, numericSubject: false)
      if case .object(let members) = document {
        for (key, value) in members { if case .value(let json) = value { claims[key] = json } }
      }
    } else if let email = user.email {
      claims["email"] = .string(email)
      claims["email_verified"] = true
    }
    for (claim, field) in dialect.idTokenExtras {
      if let value = value(of: field, for: user) { claims[claim] = .string(value) }
    }
    return try environment.keys.jwt(claims, signing: signing)
  }

  /// The user's value of `field`, `nil` when the user has none.
  func value(of field: EmulatorDialect.Field, for user: EmulatedUser) -> String? {
    switch field {
    case .id: user.id
    case .name: user.name
    case .email: user.email
    case .picture: user.picture
    case .subject: user.subject(at: name)
    case .text(let text): text
    case .flag(let flag): flag ? "true" : "false"
    }
  }
}
