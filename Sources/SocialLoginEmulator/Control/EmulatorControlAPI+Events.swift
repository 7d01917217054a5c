import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// `POST /_emulator/events/send` `{"provider", "kind", "url", "subject"?}`: the emulated
/// provider signs its event as the real one would and POSTs it to `url` (a loopback URL: the
/// emulator never sends anywhere else), then answers `{"status": <the target's status>,
/// "body": <its body as text>}`.
///
/// | provider | kind | what is posted |
/// |---|---|---|
/// | `oidc` | `backchannel-logout` | form `logout_token=<JWT>` signed with the OIDC key |
/// | `google` | `sessions-revoked`, `tokens-revoked`, `account-disabled`, `account-purged` | a SET (`application/secevent+jwt`, `typ` `secevent+jwt`), RS256, `iss` `https://accounts.google.com/` as the emulated RISC configuration says |
/// | `facebook` | `deauthorize`, `data-deletion` | form `signed_request=…`, HMAC-SHA256 with the app secret |
/// | `apple` | `consent-revoked`, `account-delete` | `{"payload": "<JWT>"}` |
/// | `kakao` | `unlink`, `account-delete`, `forced-account-delete`, `unlink-from-admin`, `incomplete-sign-up` | form `app_id`, `user_id`, `referrer_type` with `Authorization: KakaoAK <admin key>` |
/// | `kakao` | `ssf-user-unlinked`, `ssf-tokens-revoked`, `ssf-sessions-revoked`, `ssf-account-disabled`, `ssf-account-enabled`, `ssf-credential-change` | a SET (`typ` `secevent+jwt`), RS256 with the Kakao key, `iss` `https://kauth.kakao.com`, `aud` the REST API key, `sub` the user id, `toe` |
///
/// `subject` is the provider's subject id (for Apple: the emulated user's id); by default the
/// current user's. A Kakao unlink (or `ssf-user-unlinked`) also ends the user's Kakao tokens,
/// as Kakao's does.
extension EmulatorControlAPI {
  struct EventSend: Decodable {
    var provider: String
    var kind: String
    var url: String
    var subject: String?
  }

  /// The Google event types by the `kind` the control API takes.
  static let googleEventTypes = [
    "sessions-revoked": "https://schemas.openid.net/secevent/risc/event-type/sessions-revoked",
    "tokens-revoked": "https://schemas.openid.net/secevent/oauth/event-type/tokens-revoked",
    "account-disabled": "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
    "account-purged": "https://schemas.openid.net/secevent/risc/event-type/account-purged",
  ]

  /// Kakao's security event types by the `kind` the control API takes. Kakao's exact URIs
  /// are unconfirmed (providers.md §15.5): these are the RISC, CAEP and OAuth ones of the
  /// same name, which the receiver reads by their last segment.
  static let kakaoSecurityEventTypes = [
    "ssf-user-unlinked": "https://schemas.openid.net/secevent/oauth/event-type/user-unlinked",
    "ssf-tokens-revoked": "https://schemas.openid.net/secevent/oauth/event-type/tokens-revoked",
    "ssf-sessions-revoked": "https://schemas.openid.net/secevent/caep/event-type/session-revoked",
    "ssf-account-disabled":
      "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
    "ssf-account-enabled": "https://schemas.openid.net/secevent/risc/event-type/account-enabled",
    "ssf-credential-change":
      "https://schemas.openid.net/secevent/caep/event-type/credential-change",
  ]

  /// Kakao's unlink `referrer_type` by the `kind` the control API takes (providers.md §15.5).
  static let kakaoReferrerTypes = [
    "unlink": "UNLINK_FROM_APPS", "account-delete": "ACCOUNT_DELETE",
    "forced-account-delete": "FORCED_ACCOUNT_DELETE", "unlink-from-admin": "UNLINK_FROM_ADMIN",
    "incomplete-sign-up": "INCOMPLETE_SIGN_UP",
  ]

  static func sendEvent(_ request: HTTPRequest, _ dispatcher: EmulatorDispatcher) async
    -> HTTPResponse
  {
    guard request.method == "POST" else { return methodNotAllowed }
    guard let send = decode(EventSend.self, request) else {
      return error("the body must be {\"provider\", \"kind\", \"url\", \"subject\"?}")
    }
    guard let url = URL(string: send.url), url.scheme == "http" || url.scheme == "https",
      let host = url.host, ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
    else {
      return error("url must be an http(s) URL on a loopback host")
    }
    let environment = dispatcher.environment
    await environment.keys.prepareRS256()
    let event: (body: [UInt8], contentType: String)
    do {
      guard let built = try eventBody(send, environment) else {
        return error(
          "no event '\(send.kind)' for provider '\(send.provider)'; see /_emulator/ docs",
          status: 400)
      }
      event = built
    } catch let problem as EventProblem {
      return error(problem.message, status: 404)
    } catch {
      return Self.error("cannot sign: \(error)", status: 501)
    }
    do {
      var headers: HTTPHeaderFields = ["Content-Type": event.contentType]
      headers["Accept"] = "*/*"
      if send.provider == "kakao", kakaoReferrerTypes[send.kind] != nil {
        // What Kakao's webhook proves itself with: the app's primary admin key.
        headers["Authorization"] = "KakaoAK " + EmulatorApps.kakaoAdminKey
      }
      let response = try await URLSessionTransport().send(
        TransportRequest(
          method: "POST", url: url, headers: headers, body: Data(event.body),
          timeout: .seconds(15)))
      return EmulatorJSON.response([
        "status": .number(Double(response.status)),
        "body": .string(String(decoding: response.body.prefix(4096), as: UTF8.self)),
      ])
    } catch {
      return Self.error("the target could not be reached: \(error)", status: 502)
    }
  }

  struct EventProblem: Error {
    var message: String
  }

  /// The signed body of the event, or `nil` when the provider has no such event here.
  static func eventBody(_ send: EventSend, _ environment: EmulatorEnvironment) throws
    -> (body: [UInt8], contentType: String)?
  {
    let now = environment.now.timeIntervalSince1970.rounded(.down)
    let jti = TokenRegistry.makeValue(prefix: "", byteCount: 12)
    func subject(_ provider: ProviderID) throws -> String {
      if let subject = send.subject, !subject.isEmpty { return subject }
      guard let user = environment.currentUser else { throw EventProblem(message: "no user") }
      return user.subject(at: provider)
    }
    switch (send.provider, send.kind) {
    case ("oidc", "backchannel-logout"):
      let token = try environment.keys.jwt(
        [
          "iss": .string(EmulatedOIDC(environment).issuer),
          "aud": .string(EmulatorApps.oidcClientID), "iat": .number(now),
          "exp": .number(now + 120), "jti": .string(jti),
          "sub": .string(try subject(EmulatedOIDC.id)),
          "events": ["http://schemas.openid.net/event/backchannel-logout": [:]],
        ], signing: environment.oidcSignsWithRS256 ? .rs256 : .es256)
      return (Array(FormEncoding.encode([("logout_token", token)]).utf8), FormEncoding.contentType)
    case ("google", let kind):
      guard let type = googleEventTypes[kind] else { return nil }
      let issuer = EmulatedGoogle.riscIssuer
      let token = try environment.keys.jwt(
        [
          "iss": .string(issuer), "aud": .string(EmulatorApps.googleClientID),
          "iat": .number(now), "jti": .string(jti),
          "events": .object([
            type: [
              "subject": [
                "subject_type": "iss-sub", "iss": .string(issuer),
                "sub": .string(try subject(.google)),
              ]
            ]
          ]),
        ], signing: .rs256, type: "secevent+jwt")
      return (Array(token.utf8), "application/secevent+jwt")
    case ("kakao", let kind) where kakaoSecurityEventTypes[kind] != nil:
      let userID = try subject(.kakao)
      if kind == "ssf-user-unlinked",
        let user = environment.users.first(where: { $0.subject(at: .kakao) == userID })
      {
        environment.tokens.invalidate(
          provider: .kakao, userID: user.id, kinds: [.access, .refresh, .code])
      }
      let token = try environment.keys.jwt(
        [
          "iss": "https://kauth.kakao.com", "aud": .string(EmulatorApps.kakaoClientID),
          "iat": .number(now), "toe": .number(now), "jti": .string(jti),
          "sub": .string(userID),
          "events": .object([kakaoSecurityEventTypes[kind] ?? kind: [:]]),
        ], signing: .rs256, type: "secevent+jwt")
      return (Array(token.utf8), "application/secevent+jwt")
    case ("facebook", "deauthorize"), ("facebook", "data-deletion"):
      var payload: [String: JSONValue] = [
        "algorithm": "HMAC-SHA256", "issued_at": .number(now),
        "user_id": .string(try subject(.facebook)),
      ]
      if send.kind == "data-deletion" { payload["expires"] = .number(now + 3600) }
      let encoded = Base64URL.encode(Array(JSONValue.object(payload).jsonText.utf8))
      let signature = HMAC<SHA256>.authenticationCode(
        for: Array(encoded.utf8), using: Array(EmulatorApps.facebookAppSecret.utf8))
      let signed = Base64URL.encode(signature) + "." + encoded
      return (
        Array(FormEncoding.encode([("signed_request", signed)]).utf8), FormEncoding.contentType
      )
    case ("apple", "consent-revoked"), ("apple", "account-delete"):
      let user =
        try send.subject.map { id in
          guard let user = environment.user(id) else {
            throw EventProblem(message: "no emulated user '\(id)'")
          }
          return user
        } ?? environment.currentUser
      guard let user else { throw EventProblem(message: "no user") }
      let body = try EmulatedApple(environment).notification(
        type: send.kind, user: user, clientID: EmulatorApps.appleServicesID, now: environment.now)
      return (Array(body.jsonText.utf8), "application/json")
    case ("kakao", let kind):
      guard let referrer = kakaoReferrerTypes[kind] else { return nil }
      let userID = try subject(.kakao)
      if let user = environment.users.first(where: { $0.subject(at: .kakao) == userID }) {
        environment.tokens.invalidate(
          provider: .kakao, userID: user.id, kinds: [.access, .refresh, .code])
      }
      let fields = [
        ("app_id", EmulatorApps.kakaoAppID), ("user_id", userID), ("referrer_type", referrer),
      ]
      return (Array(FormEncoding.encode(fields).utf8), FormEncoding.contentType)
    default:
      return nil
    }
  }
}
