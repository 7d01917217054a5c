import Foundation
import LoopbackHTTP
import SocialLogin

/// The authorization endpoint: the emulator's consent step, PKCE S256, the dialect's required
/// `state` and `nonce`, and the tenant path segment.
extension EmulatedDescribed {
  func authorize(_ request: EmulatorRequest, parameters: [String: String]) -> HTTPResponse {
    let title = description.displayName
    if let problem = tenantProblem(parameters) {
      return EmulatorJSON.page(title: title, problem)
    }
    guard request.query("client_id") == app.clientID else {
      return EmulatorJSON.page(title: title, "Unknown client_id: no such app.")
    }
    let read: EmulatorCodeRequest
    switch EmulatorCodeRequest.read(
      request, invalidRedirect: EmulatorJSON.page(title: title, "Invalid redirect_uri."),
      unsupportedResponseType: "Only the code flow is emulated.")
    {
    case .answer(let answer): return answer
    case .request(let request): read = request
    }
    let fail = read.fail
    if dialect.requiresState, (request.query("state") ?? "").isEmpty {
      return fail("invalid_request", "state is required.")
    }
    let scopes = scopes(request.query("scope"))
    let nonce = request.query("nonce")
    if description.idToken != nil, scopes.contains("openid"), dialect.requiresNonce,
      (nonce ?? "").isEmpty
    {
      return fail("invalid_request", "nonce is required.")
    }
    if let problem = read.pkceProblem(
      allowed: ["S256"], message: "code_challenge_method must be S256.")
    {
      return problem
    }
    if let challenge = read.challenge, !EmulatorAuthorization.isValidVerifier(challenge) {
      return fail("invalid_request", "code_challenge is malformed.")
    }
    switch EmulatorAuthorization.decide(request, environment: environment, appName: title + " app")
    {
    case .page(let page): return page
    case .deny: return fail("access_denied", "User denied access")
    case .approve(let user):
      let code = environment.issueAuthorizationCode(
        prefix: name.rawValue + "-code-", provider: name, clientID: app.clientID,
        userID: user.id, scopes: scopes, request: request, redirectURI: read.redirectURI,
        challenge: read.challenge, challengeMethod: read.method, nonce: nonce)
      if let tenant = parameters["tenant"] {
        environment.tokens.update(code) { $0?.extra["tenant"] = tenant.lowercased() }
      }
      return EmulatorJSON.redirect(to: read.redirectURI, [("code", code)] + read.tail)
    }
  }

  /// The scopes of a request: split on the description's separator and on spaces; none when
  /// the description does not send scopes (NAVER's consent items are set in its console).
  func scopes(_ text: String?) -> [String] {
    guard description.authorization.sendsScope, let text else { return [] }
    let separators = Set(description.authorization.scopeSeparator + " ")
    return text.split(whereSeparator: { separators.contains($0) }).map(String.init)
  }

  /// Why a `{tenant}` value is refused (Microsoft: `common`, `organizations`, `consumers`, a
  /// tenant id or a domain name), or `nil`.
  func tenantProblem(_ parameters: [String: String]) -> String? {
    guard dialect.tenants, let tenant = parameters["tenant"] else { return nil }
    let valid =
      !tenant.isEmpty && tenant.utf8.count <= 64
      && tenant.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x2D
      }
    guard valid else {
      return "Tenant '\(tenant.prefix(64))' not found. Check to make sure you have the correct "
        + "tenant ID and are signing into the correct cloud."
    }
    return nil
  }

  /// The tenant id tokens of a login at `tenant` carry: the personal-accounts tenant for
  /// `consumers`, the emulated organization for `common` and `organizations` (and domain
  /// names), the tenant itself for a tenant id.
  func tenantID(_ tenant: String?) -> String {
    switch tenant?.lowercased() {
    case "consumers"?: EmulatorApps.microsoftConsumersTenantID
    case let value? where UUID(uuidString: value) != nil: value
    default: EmulatorApps.microsoftTenantID
    }
  }
}
