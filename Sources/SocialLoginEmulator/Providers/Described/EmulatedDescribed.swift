import Foundation
import LoopbackHTTP
import SocialLogin

/// A provider served from its ``ProviderDescription``: the routes are the description's
/// production URLs (host and path; a `{tenant}` or `{client_id}` segment matches any
/// segment), and each endpoint's job follows from the description (the keys, profile, email
/// list, token check, revocation and device endpoints it names). What the description does
/// not say about answers (Kakao's `KOE` codes, Microsoft's `error_codes`, GitHub's
/// form-encoded answers) comes from the provider's ``EmulatorDialect``.
///
/// Every ``ProviderDescription/builtIn`` description, and every description the emulator was
/// started with (`ProviderEmulator(describing:)`, `sociallogin emulator --provider-file`), is
/// registered in one loop (``EmulatorRouteTable/makeProviders(_:describing:)``), so a new
/// provider is served with no emulator code; its default app is
/// ``EmulatorApps/defaultApp(for:)``. A provider's dialect only adds fidelity.
struct EmulatedDescribed: EmulatedProvider {
  let environment: EmulatorEnvironment
  let description: ProviderDescription
  let app: EmulatorApps.DescribedApp
  let dialect: EmulatorDialect

  var name: ProviderID { description.id }

  /// The provider of `description`, with its default app.
  init(_ description: ProviderDescription, _ environment: EmulatorEnvironment) {
    let app = EmulatorApps.defaultApp(for: description)
    self.environment = environment
    self.description = description
    self.app = app
    dialect = EmulatorDialect.of(description.id)
  }

  /// What an endpoint of the description does here.
  enum Job: Sendable {
    case authorize, token, keys, profile, emails, tokenInfo, unlink, revoke, deleteGrant
    case device, securityEventConfiguration
  }

  /// The job of the endpoint `name`, from the description; `nil` for a name it gives no job.
  func job(of name: String) -> Job? {
    if name == "authorize" { return .authorize }
    if name == "token" { return .token }
    if name == description.idToken?.keysEndpoint { return .keys }
    if name == description.identity.endpoint { return .profile }
    if name == description.accessTokenCheck?.endpoint { return .tokenInfo }
    if name == description.identity.emails?.endpoint { return .emails }
    if name == description.deviceEndpoint { return .device }
    if name == "sse-configuration" { return .securityEventConfiguration }
    switch (name, description.revocation) {
    case ("unlink", .unlink): return .unlink
    case ("revoke", .rfc7009): return .revoke
    case ("revoke", .deleteGrant): return .deleteGrant
    default: return nil
    }
  }

  var routes: [EmulatorRoute] {
    var routes: [EmulatorRoute] = []
    for endpoint in description.endpoints {
      guard let job = job(of: endpoint.name), let (host, path) = Self.split(endpoint.production)
      else { continue }
      let pattern = Self.pattern(path)
      routes.append(
        EmulatorRoute(Self.methods(job), host, pattern, endpoint: endpoint.name) { request in
          handle(job, request, endpoint: endpoint)
        })
    }
    if let verification = deviceVerification {
      routes.append(
        EmulatorRoute(
          ["GET", "POST"], verification.host, verification.path, endpoint: "device_verification"
        ) { request in
          EmulatedDeviceVerification.page(
            request, environment: environment, provider: name,
            action: environment.baseURL + "/" + verification.host + verification.path,
            title: description.displayName)
        })
    }
    return routes
  }

  static func methods(_ job: Job) -> Set<String> {
    switch job {
    case .authorize, .keys, .emails, .securityEventConfiguration: ["GET"]
    case .profile, .tokenInfo: ["GET", "POST"]
    case .token, .unlink, .revoke, .device: ["POST"]
    case .deleteGrant: ["DELETE"]
    }
  }

  private func handle(_ job: Job, _ request: EmulatorRequest, endpoint: ProviderEndpoint)
    -> HTTPResponse
  {
    let parameters = Self.templateValues(endpoint.production, request.path)
    switch job {
    case .authorize: return authorize(request, parameters: parameters)
    case .token: return token(request, parameters: parameters)
    case .keys: return EmulatorJSON.response(environment.keys.jwks([signing]))
    case .profile: return profile(request)
    case .emails: return emails(request)
    case .tokenInfo: return tokenInfo(request)
    case .unlink: return unlink(request)
    case .revoke: return revoke(request)
    case .deleteGrant: return deleteGrant(request, parameters: parameters)
    case .device: return deviceAuthorization(request, parameters: parameters)
    case .securityEventConfiguration: return securityEventConfiguration()
    }
  }

  /// The production URL's host and path (`https://kauth.kakao.com/oauth/token` →
  /// `kauth.kakao.com`, `/oauth/token`); `nil` for a URL that is not `https://host/...`.
  static func split(_ production: String) -> (host: String, path: String)? {
    guard production.hasPrefix("https://") else { return nil }
    let rest = production.dropFirst("https://".count)
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    let host = String(rest[..<slash]).lowercased()
    guard !host.isEmpty, !host.contains("{") else { return nil }
    let path = String(rest[slash...])
    return (host, path.isEmpty ? "/" : path)
  }

  /// The route pattern of a template path: a `{name}` segment matches any segment.
  static func pattern(_ path: String) -> String {
    path.split(separator: "/").map { $0.hasPrefix("{") && $0.hasSuffix("}") ? "{any}" : $0 }
      .joined(separator: "/")
  }

  /// The values of the template's `{name}` segments in `path`
  /// (`/{tenant}/oauth2/v2.0/token` and `/common/oauth2/v2.0/token` → `tenant: common`).
  static func templateValues(_ production: String, _ path: String) -> [String: String] {
    guard let template = split(production)?.path else { return [:] }
    let names = template.split(separator: "/")
    let values = path.split(separator: "/")
    guard names.count == values.count else { return [:] }
    var result: [String: String] = [:]
    for (name, value) in zip(names, values) where name.hasPrefix("{") && name.hasSuffix("}") {
      result[String(name.dropFirst().dropLast())] = String(value)
    }
    return result
  }

  /// The issuer of the provider's Security Event Tokens: its ID-token issuer (Kakao's
  /// `https://kauth.kakao.com`).
  var securityEventIssuer: String? { description.idToken?.issuers.first }

  /// The security event (SSF) configuration (Kakao's `sse-configuration`): the issuer and
  /// the ID-token keys, on the emulator.
  func securityEventConfiguration() -> HTTPResponse {
    guard let issuer = securityEventIssuer, let name = description.idToken?.keysEndpoint,
      let keys = description.endpoint(name), let (host, path) = Self.split(keys.production)
    else {
      return EmulatorJSON.response(["error": "not_found"], status: 404)
    }
    return EmulatorJSON.response([
      "issuer": .string(issuer), "jwks_uri": .string(environment.baseURL + "/" + host + path),
      "delivery_methods_supported": "http://schemas.openid.net/secevent/risc/delivery-method/push",
    ])
  }

  /// How ID tokens are signed: RS256 unless the description accepts only ES256.
  var signing: EmulatorSigning {
    let algorithms = description.idToken?.algorithms ?? ["RS256"]
    return algorithms.contains("RS256") || !algorithms.contains("ES256") ? .rs256 : .es256
  }

  /// Where the device login's verification page is, when the provider has device logins.
  var deviceVerification: (host: String, path: String)? {
    guard let name = description.deviceEndpoint, let endpoint = description.endpoint(name),
      let (host, _) = Self.split(endpoint.production)
    else { return nil }
    return dialect.deviceVerification ?? (host, "/device")
  }

  var status: JSONValue {
    var entry: [String: JSONValue] = [
      "name": .string(name.rawValue), "display_name": .string(description.displayName),
      "client_id": .string(app.clientID), "described": true,
    ]
    if let issuer = description.idToken?.issuers.first { entry["issuer"] = .string(issuer) }
    if !app.parameters.isEmpty {
      entry["parameters"] = .object(app.parameters.mapValues { .string($0) })
    }
    return .object(entry)
  }

  func usesRS256(endpoint: String) -> Bool {
    guard case .rs256 = signing, description.idToken != nil else { return false }
    return endpoint == "token" || endpoint == description.idToken?.keysEndpoint
  }
}
