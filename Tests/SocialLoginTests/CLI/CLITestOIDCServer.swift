import Foundation
import LoopbackHTTP
import SocialLogin

/// A small OpenID provider on 127.0.0.1 for the CLI's session commands: discovery, a token
/// endpoint that refreshes (or answers `invalid_grant`), and revocation. It records every
/// request so tests can count what reached the provider.
final class CLITestOIDCServer: Sendable {
  struct Request: Sendable {
    var method: String
    var path: String
    var form: [String: String]
    var authorization: String?
  }

  enum TokenMode: Sendable {
    /// Issue `at-N` / `rt-N`, valid for an hour.
    case issue
    /// Answer 400 `invalid_grant`: the refresh token is dead.
    case invalidGrant
  }

  let server: LoopbackServer
  private let requests = Locked<[Request]>([])
  private let mode = Locked(TokenMode.issue)
  private let issued = Locked(0)
  private let task: Task<Void, Never>

  var issuer: String { server.baseURL }

  init() throws {
    let server = try LoopbackServer()
    self.server = server
    let requests = self.requests
    let mode = self.mode
    let issued = self.issued
    let issuer = server.baseURL
    task = Task {
      try? await server.run { request in
        let form = Dictionary(
          (request.formItems ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        requests.withLock {
          $0.append(
            Request(
              method: request.method, path: request.path, form: form,
              authorization: request.headers["Authorization"]))
        }
        switch request.path {
        case "/.well-known/openid-configuration":
          return .json(
            """
            {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/authorize",
             "token_endpoint":"\(issuer)/token","jwks_uri":"\(issuer)/jwks",
             "revocation_endpoint":"\(issuer)/revoke","response_types_supported":["code"],
             "subject_types_supported":["public"],
             "id_token_signing_alg_values_supported":["RS256"]}
            """)
        case "/token":
          guard mode.withLock({ $0 }) == .issue else {
            return .json(
              #"{"error":"invalid_grant","error_description":"refresh token revoked"}"#,
              status: 400)
          }
          let number = issued.withLock {
            $0 += 1
            return $0
          }
          return .json(
            #"{"access_token":"at-\#(number)","refresh_token":"rt-\#(number)","#
              + #""token_type":"Bearer","expires_in":3600}"#)
        case "/revoke":
          return .text("")
        default:
          return .text("not found", status: 404)
        }
      }
    }
  }

  func setMode(_ next: TokenMode) { mode.withLock { $0 = next } }

  var recorded: [Request] { requests.withLock { $0 } }

  func recorded(path: String) -> [Request] { recorded.filter { $0.path == path } }

  func close() {
    server.close()
    task.cancel()
  }
}
