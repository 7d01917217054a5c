import Foundation
import LoopbackHTTP
import SocialLogin

/// One emulated provider: its routes and its own error shapes. Each lives in its own file
/// (`EmulatedFacebook.swift`, ...) and is registered in ``EmulatorRouteTable/makeProviders(_:)``.
protocol EmulatedProvider: Sendable {
  /// The provider's name in faults and transcripts.
  var name: ProviderID { get }
  /// Every endpoint, under the production hosts.
  var routes: [EmulatorRoute] { get }
  /// A short entry for the `GET /` status document.
  var status: JSONValue { get }
  /// The provider's own error response for an injected `status` (429, 500, 503, ...), with
  /// the provider's rate-limit headers.
  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest) -> HTTPResponse
  /// The provider's answer to a refresh grant whose refresh token is dead.
  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  /// The provider's answer to a token or identity call for a disabled account.
  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse
  /// The provider's answer for a path under its hosts that it does not serve.
  func notFound(_ request: EmulatorRequest) -> HTTPResponse
  /// Whether `endpoint` may sign with RSA, so the dispatcher prepares the key off the pool.
  func usesRS256(endpoint: String) -> Bool
  /// The provider's OAuth 2.0 error response (a default: the RFC 6749 §5.2 JSON body).
  static func oauthError(_ error: String, _ description: String, status: Int) -> HTTPResponse
}

extension EmulatedProvider {
  func usesRS256(endpoint: String) -> Bool { false }

  func notFound(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response(
      ["error": "not_found", "error_description": .string("No such endpoint: \(request.path)")],
      status: 404)
  }

  /// `response` with `Retry-After` for 429 and 503 (the fault's value, else 30 s): how every
  /// emulated provider finishes its ``faultResponse(status:fault:request:)``.
  func withRetryAfter(_ response: HTTPResponse, status: Int, fault: EmulatorFault)
    -> HTTPResponse
  {
    var response = response
    if let seconds = fault.retryAfterSeconds ?? ((status == 429 || status == 503) ? 30 : nil) {
      response.headers.add(name: "Retry-After", value: String(seconds))
    }
    return response
  }

  /// An OAuth 2.0 error body, `{"error","error_description"}` (RFC 6749 §5.2).
  static func oauthError(_ error: String, _ description: String, status: Int = 400)
    -> HTTPResponse
  {
    EmulatorJSON.response(
      ["error": .string(error), "error_description": .string(description)], status: status)
  }

  /// An OAuth 2.0 endpoint's answer to an injected `status`: `temporarily_unavailable` for 429
  /// and 503, else `server_error`, with `Retry-After`.
  func oauthFault(status: Int, fault: EmulatorFault) -> HTTPResponse {
    let error = status == 429 || status == 503 ? "temporarily_unavailable" : "server_error"
    return withRetryAfter(
      Self.oauthError(error, HTTPResponse.standardReason(for: status), status: status),
      status: status, fault: fault)
  }
}

/// One endpoint: methods, the production host, a path pattern, the `--endpoint` name.
struct EmulatorRoute: Sendable {
  typealias Handler = @Sendable (EmulatorRequest) -> HTTPResponse

  let methods: Set<String>
  let host: String
  /// Path segments; `{version}` matches a Graph version such as `v26.0`; `{any}` any segment.
  let segments: [String]
  let endpoint: String
  let handler: Handler

  init(
    _ methods: Set<String>, _ host: String, _ path: String, endpoint: String,
    _ handler: @escaping Handler
  ) {
    self.methods = methods
    self.host = host
    self.segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    self.endpoint = endpoint
    self.handler = handler
  }

  func matches(path: [Substring]) -> Bool {
    guard path.count == segments.count else { return false }
    for (pattern, segment) in zip(segments, path) {
      switch pattern {
      case "{any}": continue
      case "{version}":
        guard segment.first == "v", segment.count <= 8,
          segment.dropFirst().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
          segment.count > 1
        else { return false }
      default:
        guard pattern == segment else { return false }
      }
    }
    return true
  }
}
