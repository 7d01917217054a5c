import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// The token endpoint: client authentication per ``ClientRules``, the code grant (PKCE, one
/// use, the same redirect URI and tenant), refresh by the description's rotation rule, NAVER's
/// `grant_type=delete` and the device grant.
extension EmulatedDescribed {
  static let deviceGrantType = "urn:ietf:params:oauth:grant-type:device_code"

  func token(_ request: EmulatorRequest, parameters: [String: String]) -> HTTPResponse {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return tokenError(
        .badRequest, "invalid_request", "The request body is not a valid form.", request)
    }
    if let problem = tenantProblem(parameters) {
      return tokenError(.badTenant, "invalid_request", problem, request)
    }
    let grantType = request.form("grant_type")
    if grantType == Self.deviceGrantType, description.deviceEndpoint != nil {
      return deviceToken(request, tenant: parameters["tenant"])
    }
    if let error = authenticateClient(request) { return error }
    switch grantType {
    case "authorization_code": return exchangeCode(request, tenant: parameters["tenant"])
    case "refresh_token" where description.refresh.rotation != .unsupported:
      return refresh(request, tenant: parameters["tenant"])
    case "delete" where description.revocation == .grantTypeDelete:
      return deleteByGrantType(request)
    case nil: return tokenError(.badRequest, "invalid_request", "grant_type is required.", request)
    default:
      return tokenError(
        .unsupportedGrant, "unsupported_grant_type", "Unsupported grant_type.", request)
    }
  }

  /// Client authentication as the description's ``ClientRules`` say: HTTP Basic only, the
  /// form only, or a public client; the emulated app has a secret, which is required unless
  /// the description says the provider has none.
  func authenticateClient(_ request: EmulatorRequest) -> HTTPResponse? {
    let basic = request.basicCredentials
    let posted = request.form("client_secret")
    let id: String?
    let secret: String?
    switch description.client.authentication {
    case .clientSecretBasic:
      guard let basic, posted == nil else {
        return tokenError(
          .badClient, "invalid_client", "Authenticate the client with HTTP Basic.", request)
      }
      if let bodyID = request.form("client_id"), bodyID != basic.id {
        return tokenError(
          .badRequest, "invalid_request", "client_id does not match the credentials.", request)
      }
      (id, secret) = (basic.id, basic.secret)
    case .clientSecretPost:
      guard !request.hasAuthorization else {
        return tokenError(
          .badClient, "invalid_client", "Send client_id and client_secret in the form.", request)
      }
      (id, secret) = (request.form("client_id"), posted)
    case .none:
      guard !request.hasAuthorization, posted == nil else {
        return tokenError(.badClient, "invalid_client", "A public client has no secret.", request)
      }
      return request.form("client_id") == app.clientID
        ? nil : tokenError(.badClient, "invalid_client", "Unknown client_id.", request)
    }
    guard id == app.clientID else {
      return tokenError(.badClient, "invalid_client", "Unknown client_id.", request)
    }
    guard let secret, ConstantTime.equals(Array(secret.utf8), Array(app.clientSecret.utf8))
    else {
      return tokenError(
        .badClient, "invalid_client",
        secret == nil ? "client_secret is required." : "Wrong client_secret.", request)
    }
    return nil
  }

  private func exchangeCode(_ request: EmulatorRequest, tenant: String?) -> HTTPResponse {
    let found: (code: IssuedToken, user: EmulatedUser)
    switch environment.redeemCodeGrant(request, provider: name) {
    case .success(let redeemed): found = redeemed
    case .failure(.missingCode):
      return tokenError(.badRequest, "invalid_request", "code is required.", request)
    case .failure(.alreadyUsed):
      return tokenError(.unusableCode, "invalid_grant", "The code was already used.", request)
    case .failure(.redirectMismatch):
      return tokenError(
        .redirectMismatch, "invalid_grant",
        "redirect_uri does not match the authorization request.", request)
    case .failure(.pkceMismatch):
      return tokenError(.pkceMismatch, "invalid_grant", "PKCE verification failed.", request)
    case .failure(.accountDisabled): return accountDisabled(endpoint: "token", request: request)
    case .failure:
      return tokenError(.unusableCode, "invalid_grant", "Unknown or expired code.", request)
    }
    guard found.code.clientID == app.clientID,
      found.code.extra["tenant"] == tenant?.lowercased()
    else {
      return tokenError(
        .unusableCode, "invalid_grant", "The code was issued to another app or tenant.", request)
    }
    return issueTokens(
      TokenIssue(
        user: found.user, scopes: found.code.scopes, grantID: found.code.grantID,
        nonce: found.code.extra["nonce"], tenant: tenant,
        refresh: description.refresh.rotation != .unsupported),
      request)
  }

  /// How long before its expiry a refresh token rotates under ``RefreshRules/Rotation/nearExpiry``:
  /// Kakao's last month.
  static let nearExpiryWindow: TimeInterval = 30 * 24 * 3600

  private func refresh(_ request: EmulatorRequest, tenant: String?) -> HTTPResponse {
    guard let value = request.form("refresh_token") else {
      return tokenError(
        .missingRefreshToken, "invalid_request", "refresh_token is required.", request)
    }
    let now = request.now
    let rotation = description.refresh.rotation
    let window = Self.nearExpiryWindow
    let appClient = app.clientID
    let provider = name
    // Looks the token up and, when this refresh rotates it, spends it in the same step: two
    // concurrent refreshes cannot both rotate one token.
    let found: (token: IssuedToken, rotates: Bool)? = environment.tokens.update(value) { token in
      guard let current = token, current.kind == .refresh, current.provider == provider,
        current.clientID == appClient, current.isLive(at: now)
      else { return nil }
      let rotates: Bool
      switch rotation {
      case .always: rotates = true
      case .nearExpiry:
        rotates = current.expiresAt.map { $0.timeIntervalSince(now) < window } ?? false
      case .never, .unsupported: rotates = false
      }
      if rotates { token?.spent = true }
      return (current, rotates)
    }
    guard let found else {
      return tokenError(
        .deadRefreshToken, "invalid_grant",
        dialect.errorCodeField == "error_code"
          ? "expired_or_invalid_refresh_token" : "The refresh token is invalid or expired.",
        request)
    }
    if let issuedTenant = found.token.extra["tenant"], issuedTenant != tenant?.lowercased() {
      return tokenError(
        .deadRefreshToken, "invalid_grant", "The refresh token was issued for another tenant.",
        request)
    }
    guard let user = environment.user(found.token.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    return issueTokens(
      TokenIssue(
        user: user, scopes: found.token.scopes, grantID: found.token.grantID, nonce: nil,
        tenant: found.token.extra["tenant"], refresh: found.rotates),
      request)
  }
}
