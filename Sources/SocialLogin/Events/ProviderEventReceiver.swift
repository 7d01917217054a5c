import Foundation

/// Receives the events providers push when a user is gone — an OpenID Connect back-channel
/// logout, a Google Cross-Account Protection (RISC) event, Facebook's deauthorize and data
/// deletion callbacks, Kakao's unlink webhook, Apple's server-to-server notifications — and
/// ends the matching sessions through the client's store, so that every replica following
/// the store's change feed ends them too, with a typed ``SignOutReason``.
///
/// It is framework-neutral: a server copies the method, path, headers and body of a request
/// into a ``ProviderEventRequest`` and sends back the ``ProviderEventResponse``. Routes are
/// relative to ``Configuration/prefix``:
///
/// | Route | Body | Answers |
/// |---|---|---|
/// | `POST /oidc/backchannel-logout` | form `logout_token=<JWT>` | 200, or 400 `{"error":"invalid_request"}` |
/// | `POST /google/risc` | a Security Event Token | 202, or 400 `{"err":…,"description":…}` |
/// | `POST /facebook/deauthorize` | form `signed_request=…` | 200, or 400 |
/// | `POST /facebook/data-deletion` | form `signed_request=…` | 200 `{"url","confirmation_code"}`, or 400 |
/// | `GET /facebook/data-deletion/status?code=…` | | 200, a page for the user |
/// | `POST` or `GET /kakao/unlink` | `app_id`, `user_id`, `referrer_type` | 200, or 401 without the admin key |
/// | `POST /kakao/ssf` | a Security Event Token | 202, or 400 `{"err":…,"description":…}` |
/// | `POST /apple/notifications` | `{"payload":"<JWT>"}` | 200, or 400 |
///
/// A body over ``Configuration/maximumBodyByteCount`` is refused with 413 before it is read;
/// a refused request changes nothing. A failure of the store while sessions end answers 503
/// (Kakao: 200, as Kakao counts any other status as a failed delivery), and the event's id is
/// forgotten again so that the provider's redelivery can act.
///
/// ```swift
/// let receiver = ProviderEventReceiver(
///   client: login, seen: nonceStore, configuration: .init(prefix: "/events"))
/// let response = await receiver.handle(
///   ProviderEventRequest(method: "POST", path: path, headers: headers, body: body))
/// ```
public struct ProviderEventReceiver: Sendable {
  /// Where the receiver is mounted and what it accepts.
  public struct Configuration: Sendable {
    /// The path the routes are under (`/events`), or empty for the root.
    public var prefix: String
    /// The largest body read; a larger one is refused with 413 unread. 64 KiB by default: a
    /// logout token or a SET is a few kilobytes.
    public var maximumBodyByteCount: Int
    /// How old (its `iat`) a logout token, or a Facebook `signed_request` (its `issued_at`),
    /// may be: 5 minutes by default. Older ones are refused, so a captured one is worthless
    /// once its `jti` could have been forgotten.
    public var maximumTokenAge: TimeInterval
    /// How old a Security Event Token, or an Apple server-to-server notification, may be (its
    /// `iat`): 7 days by default, as transmitters redeliver for a while; its `jti` is kept
    /// that long (an Apple notification's only until its `exp`, when that comes first).
    public var maximumSecurityEventAge: TimeInterval
    /// The public URL the receiver is mounted at (`https://app.example/events`), for the
    /// status page Facebook's data deletion answer links to. Without it the link is built
    /// from the request's `Host` header, over https.
    public var publicURL: URL?
    /// Kakao's unlink webhook, when the service signs in with Kakao.
    public var kakao: KakaoUnlink?
    /// The most stored sessions of one provider a back-channel logout token that names only
    /// a `sid` (no `sub`) may scan: stores keep no `sid` index, so such a token reads every
    /// stored session of the provider and the `sid` its ID token recorded. Beyond this the
    /// token is refused (400, nothing changes) rather than stall the receiver; OpenID
    /// providers that also send `sub` (most do) are never scanned. 100 000 by default.
    public var maximumSessionIDScan: Int

    /// Creates a configuration.
    public init(
      prefix: String = "", maximumBodyByteCount: Int = 64 * 1024,
      maximumTokenAge: TimeInterval = 300, maximumSecurityEventAge: TimeInterval = 7 * 86_400,
      publicURL: URL? = nil, kakao: KakaoUnlink? = nil, maximumSessionIDScan: Int = 100_000
    ) {
      self.prefix = prefix
      self.maximumBodyByteCount = maximumBodyByteCount
      self.maximumTokenAge = maximumTokenAge
      self.maximumSecurityEventAge = maximumSecurityEventAge
      self.publicURL = publicURL
      self.kakao = kakao
      self.maximumSessionIDScan = maximumSessionIDScan
    }
  }

  /// What Kakao's unlink webhook is checked against.
  public struct KakaoUnlink: Sendable {
    /// The app's primary admin key, which Kakao sends as `Authorization: KakaoAK <key>`.
    public var adminKey: Secret
    /// The provider id Kakao sessions are keyed by.
    public var provider: ProviderID
    /// The app id; when set, a webhook for another app is refused.
    public var appID: String?

    /// Creates the webhook's settings.
    public init(adminKey: Secret, provider: ProviderID = "kakao", appID: String? = nil) {
      self.adminKey = adminKey
      self.provider = provider
      self.appID = appID
    }
  }

  /// The client whose providers' keys and secrets verify events, and whose store the
  /// sessions end through.
  public let client: LoginClient
  /// Where the ids (`jti`) of accepted events are kept until they could no longer verify: one
  /// store shared by every replica (the Redis nonce store), so that a replay to any replica
  /// changes nothing.
  public let seen: any NonceStore
  /// Where the receiver is mounted and what it accepts.
  public let configuration: Configuration
  /// The Security Event Token transmitters of the client's providers, by provider: Google's
  /// RISC configuration, Kakao's `sse-configuration`. Made once, so that their documents and
  /// keys are fetched once for every event.
  let securityEventIssuers: [ProviderID: SecurityEventIssuer]

  /// Creates a receiver.
  public init(client: LoginClient, seen: any NonceStore, configuration: Configuration = .init()) {
    self.client = client
    self.seen = seen
    self.configuration = configuration
    securityEventIssuers = Self.securityEventIssuers(of: client)
  }

  /// The transmitters of `client`'s providers: Google's RISC configuration, and the
  /// `sse-configuration` endpoint of Kakao's description.
  static func securityEventIssuers(of client: LoginClient) -> [ProviderID: SecurityEventIssuer] {
    var issuers: [ProviderID: SecurityEventIssuer] = [:]
    if let google = client.providers[.google] as? GoogleProvider {
      issuers[.google] = SecurityEventIssuer(
        url: google.configuration.riscConfigurationEndpoint, provider: .google,
        transport: google.engine.transport, clock: google.engine.clock)
    }
    if let kakao = client.providers[.kakao] as? DescribedProvider,
      let url = kakao.configuration.url("sse-configuration")
    {
      issuers[.kakao] = SecurityEventIssuer(
        url: url, provider: .kakao, transport: kakao.transport, clock: kakao.clock)
    }
    return issuers
  }

  /// Answers one request. It never throws: every problem is an HTTP answer, and a refused
  /// request changes nothing.
  public func handle(_ request: ProviderEventRequest) async -> ProviderEventResponse {
    let prefix =
      configuration.prefix.hasSuffix("/")
      ? String(configuration.prefix.dropLast()) : configuration.prefix
    let full = request.route
    guard full.hasPrefix(prefix) else { return .empty(404) }
    let route = full.dropFirst(prefix.count)
    // Unknown paths are answered before anything is counted, so that a metric label never
    // takes a value an outsider chose.
    guard let family = Self.routes[String(route)] else { return .empty(404) }
    guard request.body.count <= configuration.maximumBodyByteCount else {
      return tooLarge(route, family)
    }
    let isPost = request.method.uppercased() == "POST"
    switch route {
    case "/oidc/backchannel-logout" where isPost:
      return await backChannelLogout(request)
    case "/google/risc" where isPost:
      return await securityEvent(request)
    case "/facebook/deauthorize" where isPost:
      return await facebook(request, deletion: false)
    case "/facebook/data-deletion" where isPost:
      return await facebook(request, deletion: true)
    case "/facebook/data-deletion/status" where request.method.uppercased() == "GET":
      return deletionStatus(request)
    case "/kakao/unlink" where isPost || request.method.uppercased() == "GET":
      return await kakaoUnlink(request)
    case "/kakao/ssf" where isPost:
      return await kakaoSecurityEvent(request)
    case "/apple/notifications" where isPost:
      return await appleNotification(request)
    default:
      // A known route asked with another method.
      return .empty(405)
    }
  }

  /// The routes, with the provider family each is counted under.
  static let routes: [String: ProviderID] = [
    "/oidc/backchannel-logout": "oidc", "/google/risc": .google,
    "/facebook/deauthorize": .facebook, "/facebook/data-deletion": .facebook,
    "/facebook/data-deletion/status": .facebook, "/kakao/unlink": "kakao",
    "/kakao/ssf": "kakao",
    "/apple/notifications": .apple,
  ]

  /// 413, in the error shape of the route, counted as refused.
  private func tooLarge(_ route: Substring, _ family: ProviderID) -> ProviderEventResponse {
    let description = "The body is larger than \(configuration.maximumBodyByteCount) bytes."
    report(family, .unknown, .rejected)
    if route == "/google/risc" || route == "/kakao/ssf" {
      return .json(413, ["err": "invalid_request", "description": .string(description)])
    }
    return .json(413, ["error": "invalid_request", "error_description": .string(description)])
  }

  /// Counts an event for the client's observer.
  func report(_ provider: ProviderID, _ kind: ProviderEventKind, _ outcome: ProviderEventOutcome) {
    client.environment.observer?.observe(
      .providerEvent(provider: provider, kind: kind, outcome: outcome))
  }

  /// Logs a refused event: why, never the token.
  func logRefusal(_ route: String, _ why: String) {
    client.logger.log(
      .info, "A provider event was refused.", metadata: ["route": route, "why": why])
  }

  /// Keeps `id` until `expiresAt`: `false` when it was kept already (a replay).
  func firstDelivery(_ id: String, until expiresAt: Date) async throws -> Bool {
    do {
      try await seen.insert(Secret(id), expiresAt: expiresAt)
      return true
    } catch let error as AuthError where error.code == .replayed {
      return false
    }
  }

  /// Forgets `id` again after acting on it failed, so that a redelivery can act.
  func forget(_ id: String) async {
    _ = try? await seen.consume(Secret(id))
  }
}

/// Why an event was refused: the message a 400 answer carries.
struct EventRefusal: Error {
  /// The RFC 8935 `err` code (`invalid_request`, `invalid_key`, `invalid_issuer`,
  /// `invalid_audience`).
  var code: String
  /// What was wrong, without any token.
  var description: String

  init(_ description: String) {
    self.init(code: "invalid_request", description)
  }

  init(code: String, _ description: String) {
    self.code = code
    self.description = description
  }

  /// The refusal of a verification error: its code's RFC 8935 name and its message.
  init(error: AuthError) {
    switch error.joseError?.reason {
    case .issuerMismatch?: code = "invalid_issuer"
    case .audienceMismatch?, .authorizedPartyMismatch?: code = "invalid_audience"
    case .signatureInvalid?, .keyNotFound?: code = "invalid_key"
    default: code = "invalid_request"
    }
    description = error.message
  }
}
