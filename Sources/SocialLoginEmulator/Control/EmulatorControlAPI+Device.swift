import Foundation
import LoopbackHTTP
import SocialLogin

/// The device-login control endpoints: what a test does instead of a person with a phone.
///
/// | Request | Effect |
/// |---|---|
/// | `GET /_emulator/device/pending` | `[{"user_code","provider","client_id","scopes","expires_at"}]` |
/// | `POST /_emulator/device/approve` `{"user_code"[,"user"]}` | approve (as `user`, else the current user) |
/// | `POST /_emulator/device/deny` `{"user_code"}` | deny |
extension EmulatorControlAPI {
  /// The answer for `device/...` paths, or `nil` for any other path.
  static func device(_ request: HTTPRequest, _ dispatcher: EmulatorDispatcher, parts: [String])
    -> HTTPResponse?
  {
    guard parts.first == "device" else { return nil }
    let environment = dispatcher.environment
    let now = environment.now
    switch (request.method, parts.dropFirst().joined(separator: "/")) {
    case ("GET", "pending"):
      let grants: [JSONValue] = environment.devices.pending(now: now).map { grant in
        [
          "user_code": .string(grant.userCode), "provider": .string(grant.provider.rawValue),
          "client_id": .string(grant.clientID),
          "scopes": .array(grant.scopes.map { .string($0) }),
          "expires_at": .number(grant.expiresAt.timeIntervalSince1970.rounded(.down)),
        ]
      }
      return EmulatorJSON.response(.array(grants))
    case ("POST", "approve"), ("POST", "deny"):
      guard let body = EmulatorJSON.decode(DecisionBody.self, from: request.body),
        !body.userCode.isEmpty, body.userCode.count <= 64
      else { return error(#"the body must be {"user_code": "..."}"#) }
      let decision: EmulatedDeviceGrants.Decision
      if parts.last == "approve" {
        let user = body.user ?? environment.currentUserID
        guard environment.user(user) != nil else { return error("no user '\(user)'", status: 404) }
        decision = .approved(userID: user)
      } else {
        decision = .denied
      }
      guard let grant = environment.devices.decide(userCode: body.userCode, decision, now: now)
      else { return error("no pending device login with that user_code", status: 404) }
      return EmulatorJSON.response([
        "user_code": .string(grant.userCode), "provider": .string(grant.provider.rawValue),
        "decision": parts.last == "approve" ? "approved" : "denied",
      ])
    case (_, "pending"), (_, "approve"), (_, "deny"):
      return methodNotAllowed
    default:
      return error("unknown device control endpoint", status: 404)
    }
  }

  private struct DecisionBody: Decodable {
    let userCode: String
    let user: String?

    enum CodingKeys: String, CodingKey {
      case userCode = "user_code"
      case user
    }
  }
}
