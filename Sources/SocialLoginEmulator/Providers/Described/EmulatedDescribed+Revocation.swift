import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// Revocation in the description's ``RevocationStyle``: Kakao's unlink, NAVER's
/// `grant_type=delete`, GitHub's grant deletion, RFC 7009.
extension EmulatedDescribed {
  /// Kakao's unlink: the bearer token's user leaves the app; every token of the user at this
  /// provider dies. Answers `{"id": <subject>}`.
  func unlink(_ request: EmulatorRequest) -> HTTPResponse {
    let (token, user): (IssuedToken, EmulatedUser)
    switch bearer(request) {
    case .success(let found): (token, user) = found
    case .failure(let failure): return failure.response
    }
    environment.tokens.invalidate(
      provider: name, userID: token.userID, kinds: [.access, .refresh, .code])
    var document = ExactJSON.object([:])
    document.set(
      subjectValue(of: user, numeric: dialect.numericSubject), at: description.identity.subject)
    return document.response()
  }

  /// NAVER's `grant_type=delete` (the client is already authenticated): the grant of a live
  /// `access_token` ends. The answer is "success" whatever the token was, as NAVER's is.
  func deleteByGrantType(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.form("access_token") else {
      return tokenError(.badRequest, "invalid_request", "access_token is required.", request)
    }
    if let token = environment.tokens.live(value, kind: .access, provider: name, at: request.now) {
      environment.tokens.revokeGrant(token.grantID)
    }
    return answer(["access_token": .string(value), "result": "success"], request)
  }

  /// GitHub's `DELETE /applications/{client_id}/grant`: HTTP Basic with the app's id and
  /// secret, `{"access_token"}` in a JSON body; 204, 404 for a token that is not live, 401
  /// for other credentials.
  func deleteGrant(_ request: EmulatorRequest, parameters: [String: String]) -> HTTPResponse {
    guard let basic = request.basicCredentials, basic.id == app.clientID,
      parameters["client_id"] == basic.id,
      ConstantTime.equals(Array(basic.secret.utf8), Array(app.clientSecret.utf8))
    else { return apiError() }
    guard case .object(let body)? = EmulatorJSON.decode(request.http.body),
      let value = body["access_token"]?.stringValue
    else {
      return EmulatorJSON.response(
        ["message": "Invalid request.", "documentation_url": "https://docs.github.com/rest"],
        status: 422)
    }
    guard let token = environment.tokens.live(value, kind: .access, provider: name, at: request.now)
    else {
      return EmulatorJSON.response(
        ["message": "Not Found", "documentation_url": "https://docs.github.com/rest"],
        status: 404)
    }
    environment.tokens.revokeGrant(token.grantID)
    return HTTPResponse(status: 204)
  }

  /// RFC 7009: the client authenticates; `token` (access or refresh) ends its grant; 200
  /// whatever the token was.
  func revoke(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm else {
      return tokenError(
        .badRequest, "invalid_request", "The request body is not a valid form.", request)
    }
    if let error = authenticateClient(request) { return error }
    guard let value = request.form("token") else {
      return tokenError(.badRequest, "invalid_request", "token is required.", request)
    }
    if let token = environment.tokens.lookup(value), token.provider == name {
      environment.tokens.revokeGrant(token.grantID)
    }
    return HTTPResponse(status: 200)
  }
}
