import Foundation
import LoopbackHTTP
import SocialLogin

/// The profile, email-list and token-check endpoints: the answer is built by writing the
/// user's fields at the description's JSON pointers (Kakao's `/kakao_account/email`,
/// NAVER's `/response/id` inside its envelope), numbers kept exact.
extension EmulatedDescribed {
  /// The live access token of the request's bearer token and its user, or the API's error.
  func bearer(_ request: EmulatorRequest) -> Result<(IssuedToken, EmulatedUser), BearerFailure> {
    guard
      let token = environment.tokens.live(
        request.bearerToken, kind: .access, provider: name, at: request.now),
      let user = environment.user(token.userID)
    else { return .failure(BearerFailure(response: apiError())) }
    guard !user.isDisabled else {
      return .failure(BearerFailure(response: apiError(status: 403, disabled: true)))
    }
    return .success((token, user))
  }

  /// An API error as a `Result` failure.
  struct BearerFailure: Error {
    var response: HTTPResponse
  }

  /// The subject as the API writes it: an exact integer where the dialect says so.
  func subjectValue(of user: EmulatedUser, numeric: Bool) -> ExactJSON {
    let subject = user.subject(at: name)
    return numeric ? .numberOrString(subject) : .value(.string(subject))
  }

  /// Writes the user's subject, name, email (verified), picture and the dialect's extras at
  /// the description's pointers.
  func writeIdentity(of user: EmulatedUser, into document: inout ExactJSON, numericSubject: Bool) {
    let identity = description.identity
    document.set(subjectValue(of: user, numeric: numericSubject), at: identity.subject)
    if let pointer = identity.name.first { document.set(.value(.string(user.name)), at: pointer) }
    if let email = user.email, let pointer = identity.email {
      document.set(.value(.string(email)), at: pointer)
      for verified in identity.emailVerified { document.set(.value(true), at: verified) }
    }
    if let picture = user.picture, let pointer = identity.picture {
      document.set(.value(.string(picture)), at: pointer)
    }
  }

  func profile(_ request: EmulatorRequest) -> HTTPResponse {
    let (_, user): (IssuedToken, EmulatedUser)
    switch bearer(request) {
    case .success(let found): (_, user) = found
    case .failure(let failure): return failure.response
    }
    var document = ExactJSON.object([:])
    writeIdentity(of: user, into: &document, numericSubject: dialect.numericSubject)
    if let envelope = description.identity.envelope {
      document.set(.value(.string(envelope.success)), at: envelope.pointer)
    }
    for (pointer, field) in dialect.profileExtras {
      if case .flag(let flag) = field {
        document.set(.value(.bool(flag)), at: pointer)
      } else if let value = value(of: field, for: user) {
        document.set(.value(.string(value)), at: pointer)
      }
    }
    return document.response()
  }

  /// The email list (GitHub's `/user/emails`): the user's address, primary and verified.
  func emails(_ request: EmulatorRequest) -> HTTPResponse {
    let user: EmulatedUser
    switch bearer(request) {
    case .success(let found): user = found.1
    case .failure(let failure): return failure.response
    }
    guard let rules = description.identity.emails, let email = user.email else {
      return ExactJSON.array([]).response()
    }
    var entry = ExactJSON.object([:])
    entry.set(.value(.string(email)), at: rules.address)
    entry.set(.value(true), at: rules.primary)
    entry.set(.value(true), at: rules.verified)
    entry.set(.value("public"), at: "/visibility")
    var other = ExactJSON.object([:])
    other.set(.value(.string(user.id + "@users.noreply.example.test")), at: rules.address)
    other.set(.value(false), at: rules.primary)
    other.set(.value(true), at: rules.verified)
    other.set(.value(.null), at: "/visibility")
    return ExactJSON.array([other, entry]).response()
  }

  /// The token check (Kakao's `access_token_info`): the subject, the seconds left and the
  /// app's id at the description's pointers.
  func tokenInfo(_ request: EmulatorRequest) -> HTTPResponse {
    let (token, user): (IssuedToken, EmulatedUser)
    switch bearer(request) {
    case .success(let found): (token, user) = found
    case .failure(let failure): return failure.response
    }
    guard let check = description.accessTokenCheck else { return apiError() }
    var document = ExactJSON.object([:])
    document.set(subjectValue(of: user, numeric: dialect.numericSubject), at: check.subject)
    if let pointer = check.appID {
      document.set(.numberOrString(app.appID ?? app.clientID), at: pointer)
    }
    if let expiry = token.expiresAt {
      let left = max(0, Int(expiry.timeIntervalSince(request.now).rounded(.down)))
      document.set(.integer(String(left)), at: "/expires_in")
    }
    return document.response()
  }
}
