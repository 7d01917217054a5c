import Foundation
import LoopbackHTTP
import SocialLogin

/// The emulator's HTTP control API, for tests in any language and for the CLI. Every answer
/// is JSON; bad input is a 400 with `{"error": "..."}`.
///
/// | Request | Effect |
/// |---|---|
/// | `GET /` | status: providers, hosts, default apps, users |
/// | `POST /_emulator/faults` | inject a fault (an ``EmulatorFault`` object, or an array) |
/// | `GET /_emulator/faults`, `DELETE /_emulator/faults` | list, clear |
/// | `GET /_emulator/requests`, `DELETE /_emulator/requests` | transcript, clear |
/// | `GET /_emulator/users`, `POST /_emulator/users` | list, add or replace (an ``EmulatedUser``) |
/// | `POST /_emulator/users/current` `{"id"}` | the user logins approve as |
/// | `DELETE /_emulator/users/{id}` | remove a user |
/// | `POST /_emulator/lifetimes` `{"provider","access_token_ttl",...}` | token lifetimes (a `Warning` header when access tokens last no longer than the SDK's default leeway) |
/// | `POST /_emulator/clock` `{"advance_seconds"}`, `GET /_emulator/clock` | move time |
/// | `POST /_emulator/tokens/revoke` `{"provider","user","access_tokens"}` | revoke grants |
/// | `POST /_emulator/tokens/expire` `{"provider","user","access_tokens"}` | expire tokens |
/// | `POST /_emulator/keys/rotate` | rotate the signing keys: `{"es256_kid","rs256_kid"}` |
/// | `GET /_emulator/lifetimes` | every provider's token lifetimes |
/// | `GET /_emulator/settings`, `POST /_emulator/settings` | ``EmulatorSettings`` (typed JSON) |
/// | `POST /_emulator/events/send` `{"provider","kind","url","subject"}` | the provider POSTs its signed event to `url`: `{"status","body"}` of the answer |
/// | `POST /_emulator/facebook/limited-login-token` `{"user","nonce","app_id"}` | `{"id_token"}` |
/// | `POST /_emulator/line/id-token` `{"user","nonce","alg"}` | `{"id_token"}` (HS256 or ES256) |
/// | `GET /_emulator/device/pending`, `POST /_emulator/device/approve`, `.../deny` | device logins (see `EmulatorControlAPI+Device.swift`) |
enum EmulatorControlAPI {
  /// Routes a request: `/` and `/_emulator/...` here, everything else to a provider.
  static func route(_ request: HTTPRequest, _ dispatcher: EmulatorDispatcher) async -> HTTPResponse
  {
    let path = request.path
    if path == "/" || path == "/_emulator" || path == "/_emulator/" {
      guard request.method == "GET" || request.method == "HEAD" else { return methodNotAllowed }
      return status(dispatcher)
    }
    if path == "/_emulator/events/send" {
      return dispatcher.stamped(await sendEvent(request, dispatcher), skew: nil)
    }
    if path.hasPrefix("/_emulator/") {
      if path == "/_emulator/facebook/limited-login-token" {
        await dispatcher.environment.keys.prepareRS256()
      }
      let response = control(request, dispatcher, path: String(path.dropFirst("/_emulator/".count)))
      return dispatcher.stamped(response, skew: nil)
    }
    let trimmed = path.dropFirst()
    let slash = trimmed.firstIndex(of: "/") ?? trimmed.endIndex
    let host = String(trimmed[..<slash]).lowercased()
    let rest = String(trimmed[slash...])
    return await dispatcher.handle(request, host: host, path: rest.isEmpty ? "/" : rest)
  }

  static var methodNotAllowed: HTTPResponse { error("method not allowed", status: 405) }

  static func error(_ message: String, status: Int = 400) -> HTTPResponse {
    EmulatorJSON.response(["error": .string(message)], status: status)
  }

  static func encoded(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
    EmulatorJSON.response(encoding: value, status: status)
      ?? error("encoding failed", status: 500)
  }

  static func decode<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) -> T? {
    EmulatorJSON.decode(T.self, from: request.body)
  }

  static func status(_ dispatcher: EmulatorDispatcher) -> HTTPResponse {
    let environment = dispatcher.environment
    let providers: [JSONValue] = dispatcher.table.providers.map { provider in
      var entry = provider.status.objectValue ?? [:]
      entry["endpoints"] = .array(dispatcher.table.endpoints(of: provider.name).map { .string($0) })
      return .object(entry)
    }
    return EmulatorJSON.response([
      // What the Firebase Auth emulator answers at `GET /` (firebase-tools
      // `src/emulator/auth`): Firebase tooling and scripts poll it until `ready`.
      "authEmulator": [
        "ready": true, "docs": "https://firebase.google.com/docs/emulator-suite",
      ],
      "emulator": [
        "ready": true, "version": .string(SDKVersion.current),
        "base_url": .string(environment.baseURL),
        "environment": .string(
          "SOCIALLOGIN_EMULATOR_HOST="
            + environment.baseURL.replacingOccurrences(
              of: "http://", with: "")),
        "now": .number(environment.now.timeIntervalSince1970.rounded(.down)),
        "current_user": .string(environment.currentUserID),
        "users": .array(environment.users.map { .string($0.id) }),
        "control": "/_emulator/",
      ],
      "providers": .array(providers),
      "apps": .array(
        EmulatorApps.summary.map { app in
          [
            "provider": .string(app.provider), "client_id": .string(app.clientID),
            "client_secret": .string(app.clientSecret),
          ]
        }),
    ])
  }

  // swiftlint:disable:next cyclomatic_complexity
  static func control(_ request: HTTPRequest, _ dispatcher: EmulatorDispatcher, path: String)
    -> HTTPResponse
  {
    let environment = dispatcher.environment
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let key = parts.joined(separator: "/")
    if let answer = device(request, dispatcher, parts: parts) { return answer }
    if request.method == "DELETE", parts.count == 2, parts[0] == "users" {
      guard environment.removeUser(parts[1]) else {
        return error("no user '\(parts[1])', or it is the last one", status: 404)
      }
      return encoded(environment.users)
    }
    switch (request.method, key) {
    case ("POST", "faults"):
      let faults: [EmulatorFault]
      if let one = decode(EmulatorFault.self, request) {
        faults = [one]
      } else if let many = decode([EmulatorFault].self, request) {
        faults = many
      } else {
        return error("the body must be a fault object or an array of them")
      }
      for fault in faults {
        guard fault.isEffective else { return error("a fault must change something") }
        if let count = fault.count, count < 1 { return error("count must be at least 1") }
        if let status = fault.status, !(200...999).contains(status) {
          return error("status must be 200...999")
        }
        if let provider = fault.provider,
          !dispatcher.table.providers.contains(where: { $0.name == provider })
        {
          return error("unknown provider '\(provider)'")
        }
        if let provider = fault.provider, let endpoint = fault.endpoint,
          !dispatcher.table.endpoints(of: provider).contains(endpoint)
        {
          return error(
            "unknown endpoint '\(endpoint)' of \(provider); known: "
              + dispatcher.table.endpoints(of: provider).joined(separator: ", "))
        }
      }
      for fault in faults { dispatcher.inject(fault) }
      return encoded(dispatcher.activeFaults, status: 201)
    case ("GET", "faults"):
      return encoded(dispatcher.activeFaults)
    case ("DELETE", "faults"):
      dispatcher.clearFaults()
      return encoded([EmulatorFault]())
    case ("GET", "requests"):
      return encoded(dispatcher.requests)
    case ("DELETE", "requests"):
      dispatcher.clearRequests()
      return encoded([EmulatorRequestRecord]())
    case ("GET", "users"):
      return encoded(environment.users)
    case ("POST", "users"):
      guard let user = decode(EmulatedUser.self, request), !user.id.isEmpty, user.id.count <= 200
      else { return error("the body must be a user object with an id") }
      environment.upsert(user)
      return encoded(user, status: 201)
    case ("POST", "users/current"), ("PUT", "users/current"):
      guard let body = decode([String: String].self, request), let id = body["id"] else {
        return error("the body must be {\"id\": \"...\"}")
      }
      guard environment.setCurrentUser(id) else { return error("no user '\(id)'", status: 404) }
      return encoded(["current_user": id])
    case ("POST", "lifetimes"):
      return setLifetimes(request, dispatcher)
    case ("GET", "clock"):
      return encoded(["now": environment.now.timeIntervalSince1970])
    case ("POST", "clock"):
      guard let body = decode([String: Double].self, request),
        let seconds = body["advance_seconds"], seconds.isFinite, seconds >= 0,
        seconds < 100 * 365 * 86400
      else { return error("the body must be {\"advance_seconds\": N} with N >= 0") }
      environment.advanceClock(by: seconds)
      return encoded(["now": environment.now.timeIntervalSince1970])
    case ("POST", "tokens/revoke"), ("POST", "tokens/expire"):
      let action = parts[1]
      let body = decode(TokenControl.self, request) ?? TokenControl()
      let kinds: Set<IssuedToken.Kind> =
        body.accessTokens == true ? [.refresh, .access, .oauth1Access] : [.refresh]
      let changed = environment.tokens.invalidate(
        provider: body.provider, userID: body.user, kinds: kinds,
        expireAt: action == "expire" ? environment.now : nil)
      return encoded(["changed": changed])
    case ("POST", "keys/rotate"):
      let ids = environment.keys.rotate()
      return encoded(["es256_kid": ids.es256, "rs256_kid": ids.rs256])
    case ("POST", "settings"):
      return settings(request, dispatcher)
    case ("GET", "settings"):
      return encoded(environment.settings)
    case ("GET", "lifetimes"):
      var all: [String: TokenLifetimes] = [:]
      for provider in dispatcher.table.providers {
        all[provider.name.rawValue] = environment.lifetimes(for: provider.name)
      }
      return encoded(all)
    case ("POST", "line/id-token"):
      return lineIDToken(request, dispatcher)
    case ("GET", "apple/key"):
      return EmulatorJSON.response([
        "client_ids": .array(EmulatedApple.clientIDs.map(JSONValue.string)),
        "team_id": .string(EmulatorApps.appleTeamID), "key_id": .string(EmulatorApps.appleKeyID),
        "private_key_pem": .string(EmulatorApps.applePrivateKeyPEM),
      ])
    case ("POST", "apple/authorization"):
      // {"client_id", "nonce", "user"} → {code, identity_token}: what an iOS app receives.
      let body = decode([String: String].self, request) ?? [:]
      guard let user = body["user"].flatMap(environment.user) ?? environment.currentUser else {
        return error("no such user", status: 404)
      }
      do {
        let issued = try EmulatedApple(environment).nativeAuthorization(
          user: user, clientID: body["client_id"] ?? EmulatorApps.appleBundleID,
          nonce: body["nonce"], now: environment.now)
        return encoded(["code": issued.code, "identity_token": issued.identityToken])
      } catch {
        return Self.error("cannot sign: \(error)", status: 501)
      }
    case ("POST", "apple/notifications"):
      // {"type", "user", "client_id"} → the body Apple posts to the app's endpoint.
      let body = decode([String: String].self, request) ?? [:]
      guard let type = body["type"], !type.isEmpty else { return error("type is required") }
      guard let user = body["user"].flatMap(environment.user) ?? environment.currentUser else {
        return error("no such user", status: 404)
      }
      do {
        return EmulatorJSON.response(
          try EmulatedApple(environment).notification(
            type: type, user: user, clientID: body["client_id"] ?? EmulatorApps.appleServicesID,
            now: environment.now))
      } catch {
        return Self.error("cannot sign: \(error)", status: 501)
      }
    case ("POST", "facebook/limited-login-token"):
      let body = decode([String: String].self, request) ?? [:]
      guard let user = body["user"].flatMap(environment.user) ?? environment.currentUser else {
        return error("no such user", status: 404)
      }
      do {
        let token = try EmulatedFacebook(environment).limitedLoginToken(
          user: user, appID: body["app_id"] ?? EmulatorApps.facebookAppID, nonce: body["nonce"],
          now: environment.now)
        return encoded(["id_token": token])
      } catch {
        return Self.error("cannot sign: \(error)", status: 501)
      }
    default:
      return error("no such control: \(request.method) /_emulator/\(path)", status: 404)
    }
  }

  /// `{"user", "nonce", "alg"}` → `{"id_token"}`: a LINE ID token as a mobile app holds it.
  static func lineIDToken(_ request: HTTPRequest, _ dispatcher: EmulatorDispatcher)
    -> HTTPResponse
  {
    let body = decode([String: String].self, request) ?? [:]
    let algorithm: JWSAlgorithm?
    switch body["alg"] {
    case nil: algorithm = nil
    case "HS256": algorithm = .hs256
    case "ES256": algorithm = .es256
    case let other?: return error("alg must be \"HS256\" or \"ES256\", not '\(other)'")
    }
    guard body["user"].map({ dispatcher.environment.user($0) != nil }) ?? true else {
      return error("no such user", status: 404)
    }
    do {
      let token = try ProviderEmulator.lineIDToken(
        in: dispatcher.environment, userID: body["user"], nonce: body["nonce"],
        algorithm: algorithm)
      return encoded(["id_token": token])
    } catch {
      return Self.error("cannot sign: \(error)", status: 501)
    }
  }

  struct TokenControl: Decodable {
    var provider: ProviderID?
    var user: String?
    var accessTokens: Bool?

    enum CodingKeys: String, CodingKey {
      case provider, user
      case accessTokens = "access_tokens"
    }
  }

  struct LifetimeControl: Decodable {
    var provider: ProviderID?
    var accessToken: TimeInterval?
    var refreshToken: TimeInterval?
    var authorizationCode: TimeInterval?
    var idToken: TimeInterval?

    enum CodingKeys: String, CodingKey {
      case provider
      case accessToken = "access_token_ttl"
      case refreshToken = "refresh_token_ttl"
      case authorizationCode = "code_ttl"
      case idToken = "id_token_ttl"
    }
  }

  static func setLifetimes(_ request: HTTPRequest, _ dispatcher: EmulatorDispatcher) -> HTTPResponse
  {
    guard let body = decode(LifetimeControl.self, request) else {
      return error("the body must be {\"provider\", \"access_token_ttl\", ...}")
    }
    let values = [body.accessToken, body.refreshToken, body.authorizationCode, body.idToken]
    guard values.allSatisfy({ $0.map { $0.isFinite && $0 >= 0 && $0 < 1e10 } ?? true }) else {
      return error("lifetimes must be seconds >= 0")
    }
    let names = dispatcher.table.providers.map(\.name)
    if let provider = body.provider, !names.contains(provider) {
      return error("unknown provider '\(provider)'")
    }
    var result: [String: TokenLifetimes] = [:]
    for name in body.provider.map({ [$0] }) ?? names {
      var lifetimes = dispatcher.environment.lifetimes(for: name)
      if let value = body.accessToken { lifetimes.accessToken = value }
      if let value = body.refreshToken { lifetimes.refreshToken = value }
      if let value = body.authorizationCode { lifetimes.authorizationCode = value }
      if let value = body.idToken { lifetimes.idToken = value }
      dispatcher.environment.setLifetimes(lifetimes, for: name)
      result[name.rawValue] = lifetimes
    }
    var response = encoded(result)
    if let accessToken = body.accessToken,
      let warning = TokenLifetimes.leewayWarning(accessToken: accessToken)
    {
      // The lifetimes are set, but a client using the SDK's defaults refreshes on every token
      // request. `Warning: 199` is RFC 7234's "miscellaneous warning" (RFC 9111 retired the
      // field, but clients still show it, and the JSON body keeps its documented shape).
      response.headers.replaceOrAdd(
        name: "Warning", value: "199 sociallogin-emulator \"\(warning)\"")
    }
    return response
  }

  static func settings(_ request: HTTPRequest, _ dispatcher: EmulatorDispatcher) -> HTTPResponse {
    guard case .object(let body)? = EmulatorJSON.decode(request.body) else {
      return error("the body must be a JSON object")
    }
    let known = Set(EmulatorSettings.CodingKeys.allCases.map(\.rawValue))
    if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) {
      return error(
        "unknown setting '\(unknown)'; the settings are: \(known.sorted().joined(separator: ", "))")
    }
    guard let settings = decode(EmulatorSettings.self, request) else {
      return error("a setting has the wrong type (booleans are true/false, algorithms strings)")
    }
    if let problem = settings.problem { return error(problem) }
    dispatcher.environment.apply(settings)
    return encoded(dispatcher.environment.settings)
  }
}
