import Foundation
import LoopbackHTTP

/// The parts of an authorization request that every code-flow provider checks alike: a
/// redirectable `redirect_uri` (else the provider's error page, as nothing may be redirected
/// to), no repeated parameter, `response_type=code`, and the PKCE challenge and its method.
/// Errors after the redirect URI is known go back to it with `state`.
struct EmulatorCodeRequest {
  /// What reading the request gave: the request, or the answer that ends it.
  enum Reading {
    case request(EmulatorCodeRequest)
    case answer(HTTPResponse)
  }

  let redirectURI: String
  /// What every redirect carries after its result: `state` when sent, then `extraTail` (the
  /// OpenID provider's `iss`).
  let tail: [(String, String)]
  /// The PKCE challenge, and its method (`plain` when a challenge names none).
  let challenge: String?
  let method: String?

  /// Reads `request`; `invalidRedirect` is the page for a missing or unusable redirect URI,
  /// `unsupportedResponseType` the description of that error.
  static func read(
    _ request: EmulatorRequest, invalidRedirect: @autoclosure () -> HTTPResponse,
    extraTail: [(String, String)] = [], unsupportedResponseType: String
  ) -> Reading {
    guard let redirectURI = request.query("redirect_uri"),
      EmulatorAuthorization.isRedirectable(redirectURI)
    else { return .answer(invalidRedirect()) }
    let state = request.query("state").map { [("state", $0)] } ?? []
    let challenge = request.query("code_challenge")
    let read = EmulatorCodeRequest(
      redirectURI: redirectURI, tail: state + extraTail, challenge: challenge,
      method: request.query("code_challenge_method") ?? (challenge == nil ? nil : "plain"))
    if let repeated = request.repeatedParameter {
      return .answer(read.fail("invalid_request", "\(repeated) is repeated"))
    }
    guard request.query("response_type") == "code" else {
      return .answer(read.fail("unsupported_response_type", unsupportedResponseType))
    }
    return .request(read)
  }

  /// A redirect with `error` and `error_description`, then the tail.
  func fail(_ error: String, _ description: String) -> HTTPResponse {
    EmulatorJSON.redirect(
      to: redirectURI, [("error", error), ("error_description", description)] + tail)
  }

  /// The `invalid_request` redirect for a PKCE method outside `allowed`, or `nil`.
  func pkceProblem(allowed: Set<String>, message: String) -> HTTPResponse? {
    guard let method, !allowed.contains(method) else { return nil }
    return fail("invalid_request", message)
  }
}
