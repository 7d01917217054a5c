import Foundation

extension XProvider {
  /// The URLs of X's OAuth 2.0 flow and of the user lookup, each settable by its name.
  ///
  /// ```swift
  /// var endpoints = XProvider.Endpoints.production
  /// endpoints.token = URL(string: "https://staging.example/2/oauth2/token")!
  /// ```
  public struct Endpoints: Hashable, Sendable {
    /// The browser page where the user approves the app (`authorize`).
    public var authorize: URL
    /// The token endpoint for the code exchange and refreshes (`token`).
    public var token: URL
    /// The RFC 7009 revocation endpoint (`revoke`).
    public var revoke: URL
    /// `GET /2/users/me`, who the access token belongs to (`users_me`).
    public var usersMe: URL

    /// Creates a set of endpoints.
    public init(authorize: URL, token: URL, revoke: URL, usersMe: URL) {
      self.authorize = authorize
      self.token = token
      self.revoke = revoke
      self.usersMe = usersMe
    }

    /// X's production endpoints: `https://x.com/i/oauth2/authorize` and `https://api.x.com/2/…`.
    public static let production = Endpoints(
      authorize: URL.known("https://x.com/i/oauth2/authorize"),
      token: URL.known("https://api.x.com/2/oauth2/token"),
      revoke: URL.known("https://api.x.com/2/oauth2/revoke"),
      usersMe: URL.known("https://api.x.com/2/users/me"))
  }

  /// How ``XProvider`` signs users in with OAuth 2.0 (authorization code + PKCE), the flow X
  /// recommends for every new app.
  ///
  /// A client with a ``clientSecret`` is *confidential* (X's "Web App, Automated App or Bot"):
  /// it authenticates with HTTP Basic on the token, refresh and revocation requests. Without a
  /// secret it is *public* ("Native App", "Single page App") and sends `client_id` in the body.
  ///
  /// Built from command-line flags, for example:
  ///
  /// ```swift
  /// var configuration = try XProvider.Configuration(
  ///   clientID: flags.clientID, clientSecret: flags.clientSecret.map { Secret($0) })
  /// for (name, url) in flags.endpoints {            // --endpoint token=http://127.0.0.1:9199/…
  ///   try configuration.setEndpoint(name, to: url)
  /// }
  /// let provider = XProvider(configuration: configuration)
  /// ```
  public struct Configuration: Sendable {
    /// The scopes requested by default: `users.read tweet.read offline.access`. X needs
    /// `tweet.read` beside `users.read` for `/2/users/me`, and issues a refresh token only with
    /// `offline.access`.
    public static let defaultScopes = ["users.read", "tweet.read", "offline.access"]
    /// The `user.fields` requested from `/2/users/me` by default: the profile image.
    public static let defaultUserFields = ["profile_image_url"]
    /// The names ``setEndpoint(_:to:)`` accepts, in the order the CLI lists them.
    public static let endpointNames = endpointFields.map(\.name)
    /// Each endpoint name with the field of ``Endpoints`` it sets.
    static var endpointFields: [(name: String, field: WritableKeyPath<Endpoints, URL>)] {
      [
        ("authorize", \.authorize), ("token", \.token), ("revoke", \.revoke),
        ("users_me", \.usersMe),
      ]
    }

    /// The OAuth 2.0 client id from X's developer portal.
    public var clientID: String
    /// The client secret of a confidential client; `nil` (or empty) for a public client.
    public var clientSecret: Secret?
    /// The scopes to request.
    public var scopes: [String]
    /// The `user.fields` to request from `/2/users/me` (`profile_image_url`,
    /// `confirmed_email`, `description`, ...). Empty sends no `user.fields`.
    public var userFields: [String]
    /// The endpoints, before the emulator mapping.
    public var endpoints: Endpoints
    /// The provider emulator every production endpoint is mapped to, when set.
    public var emulatorHost: EmulatorHost? {
      get { endpointTable.emulator }
      set { endpointTable.emulator = newValue }
    }
    /// How long a started login accepts its callback.
    public var pendingLoginLifetime: TimeInterval
    /// How long each request to X may take.
    public var requestTimeout: Duration
    /// Whether and how long the identity of an access token is reused instead of asking
    /// `/2/users/me` again (billed per call since February 2026); on by default.
    public var identityCache = XIdentityCachePolicy()
    /// The overrides made with ``setEndpoint(_:to:)`` and the emulator, checked and resolved by
    /// the rule every provider shares.
    private var endpointTable: EndpointTable

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - clientID: The OAuth 2.0 client id.
    ///   - clientSecret: The secret of a confidential client; `nil` for a public one.
    ///   - scopes: The scopes; ``defaultScopes`` by default.
    ///   - userFields: The `user.fields` for `/2/users/me`; ``defaultUserFields`` by default.
    ///   - endpoints: The endpoints; ``Endpoints/production`` by default.
    ///   - emulatorHost: The emulator (a loopback host) to map production endpoints to; when
    ///     `nil`, `SOCIALLOGIN_EMULATOR_HOST` in `environment` decides.
    ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment
    ///     by default; pass `[:]` so that no environment variable can move where requests go.
    ///   - pendingLoginLifetime: How long a login waits for its callback; 10 minutes.
    ///   - requestTimeout: The timeout of each request; 30 seconds.
    /// - Throws: ``AuthError/Code/configuration`` when `clientID` is empty,
    ///   `SOCIALLOGIN_EMULATOR_HOST` is set but malformed (a typo must not send logins to the
    ///   real X) or not a loopback host (the message names the variable), or `emulatorHost` is
    ///   not a loopback host.
    public init(
      clientID: String,
      clientSecret: Secret? = nil,
      scopes: [String] = Configuration.defaultScopes,
      userFields: [String] = Configuration.defaultUserFields,
      endpoints: Endpoints = .production,
      emulatorHost: EmulatorHost? = nil,
      environment: [String: String] = ProcessInfo.processInfo.environment,
      pendingLoginLifetime: TimeInterval = 600,
      requestTimeout: Duration = .seconds(30)
    ) throws(AuthError) {
      guard !clientID.isEmpty else {
        throw AuthError(.configuration, "The X client id is empty.", provider: .twitter)
      }
      self.clientID = clientID
      self.clientSecret = clientSecret
      self.scopes = scopes
      self.userFields = userFields
      self.endpoints = endpoints
      endpointTable = try EndpointTable(
        provider: .twitter, label: "X", names: Self.endpointNames, emulatorHost: emulatorHost,
        environment: environment)
      self.pendingLoginLifetime = pendingLoginLifetime
      self.requestTimeout = requestTimeout
    }

    /// Whether the client is confidential (has a non-empty secret) and so uses HTTP Basic.
    public var isConfidential: Bool { !(clientSecret?.isEmpty ?? true) }

    /// Points the endpoint called `name` (one of ``endpointNames``) at `url`.
    ///
    /// - Throws: ``AuthError/Code/configuration`` for an unknown name, or a URL that is neither
    ///   `https` nor `http` to a loopback host (every endpoint carries a secret or a token).
    public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
      try endpointTable.set(name, to: url, in: &endpoints, fields: Self.endpointFields)
    }

    /// The endpoints actually used: an endpoint set with ``setEndpoint(_:to:)`` exactly as
    /// given; the others, when on X's production hosts, mapped onto ``emulatorHost`` when one is
    /// set (endpoints assigned on other hosts, a test server or staging, are used as they are).
    public var resolvedEndpoints: Endpoints {
      endpointTable.resolve(
        endpoints, fields: Self.endpointFields, emulator: emulatorHost,
        mapsOnly: XProvider.isProductionHost)
    }
  }

  /// How ``XProvider`` signs users in with OAuth 1.0a, for legacy apps that hold a consumer key
  /// and secret (X's "API Key and Secret") and need user-context v1.1 access.
  ///
  /// The same ``ProviderID/twitter`` provider id and the same account ids as OAuth 2.0, so a
  /// session is keyed alike whichever flow made it. OAuth 1.0a tokens never expire (there is
  /// nothing to refresh); they end when the user revokes the app or the app invalidates them.
  ///
  /// ```swift
  /// var configuration = try XProvider.OAuth1Configuration(
  ///   consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: Secret(secretFromVault))
  /// try configuration.setEndpoint("authorize", to: URL(string: "https://api.x.com/oauth/authorize")!)
  /// let provider = XProvider(oauth1: configuration)
  /// ```
  public struct OAuth1Configuration: Sendable {
    /// The URLs of X's OAuth 1.0a flow, each settable by its name.
    public struct Endpoints: Hashable, Sendable {
      /// `POST oauth/request_token` (`request_token`).
      public var requestToken: URL
      /// The browser page (`authorize`): `oauth/authenticate` by default ("Sign in with X",
      /// no consent screen once granted); set `oauth/authorize` to prompt every time.
      public var authorize: URL
      /// `POST oauth/access_token` (`access_token`).
      public var accessToken: URL
      /// `GET 1.1/account/verify_credentials.json` (`verify_credentials`).
      public var verifyCredentials: URL
      /// `POST 1.1/oauth/invalidate_token` (`invalidate_token`).
      public var invalidateToken: URL

      /// Creates a set of endpoints.
      public init(
        requestToken: URL, authorize: URL, accessToken: URL, verifyCredentials: URL,
        invalidateToken: URL
      ) {
        self.requestToken = requestToken
        self.authorize = authorize
        self.accessToken = accessToken
        self.verifyCredentials = verifyCredentials
        self.invalidateToken = invalidateToken
      }

      /// X's production endpoints on `https://api.x.com`.
      public static let production = Endpoints(
        requestToken: URL.known("https://api.x.com/oauth/request_token"),
        authorize: URL.known("https://api.x.com/oauth/authenticate"),
        accessToken: URL.known("https://api.x.com/oauth/access_token"),
        verifyCredentials: URL.known(
          "https://api.x.com/1.1/account/verify_credentials.json"),
        invalidateToken: URL.known("https://api.x.com/1.1/oauth/invalidate_token"))
    }

    /// The names ``setEndpoint(_:to:)`` accepts, in the order the CLI lists them.
    public static let endpointNames = endpointFields.map(\.name)
    /// Each endpoint name with the field of ``Endpoints`` it sets.
    static var endpointFields: [(name: String, field: WritableKeyPath<Endpoints, URL>)] {
      [
        ("request_token", \.requestToken), ("authorize", \.authorize),
        ("access_token", \.accessToken), ("verify_credentials", \.verifyCredentials),
        ("invalidate_token", \.invalidateToken),
      ]
    }

    /// The consumer (API) key; it is the audience ``XProvider/verify(_:)`` proves.
    public var consumerKey: String
    /// The consumer (API key) secret.
    public var consumerSecret: Secret
    /// `x_auth_access_type` (`read` or `write`) to narrow what X grants, if any.
    public var accessType: OAuth1Client.AccessType?
    /// Whether X asks for the user's credentials even when they are signed in.
    public var forceLogin: Bool
    /// Whether `verify_credentials` asks for the email (X returns it only to apps allowed to
    /// request it).
    public var includeEmail: Bool
    /// The endpoints, before the emulator mapping.
    public var endpoints: Endpoints
    /// The provider emulator every production endpoint is mapped to, when set.
    public var emulatorHost: EmulatorHost? {
      get { endpointTable.emulator }
      set { endpointTable.emulator = newValue }
    }
    /// How long a started login accepts its callback.
    public var pendingLoginLifetime: TimeInterval
    /// The overrides made with ``setEndpoint(_:to:)`` and the emulator, checked and resolved by
    /// the rule every provider shares.
    private var endpointTable: EndpointTable

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - consumerKey: The consumer (API) key.
    ///   - consumerSecret: The consumer (API key) secret.
    ///   - accessType: `x_auth_access_type`, if any.
    ///   - forceLogin: Whether to send `force_login=true`.
    ///   - includeEmail: Whether to ask `verify_credentials` for the email.
    ///   - endpoints: The endpoints; ``Endpoints/production`` by default.
    ///   - emulatorHost: The emulator (a loopback host) to map production endpoints to; when
    ///     `nil`, `SOCIALLOGIN_EMULATOR_HOST` in `environment` decides.
    ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment
    ///     by default; pass `[:]` so that no environment variable can move where requests go.
    ///   - pendingLoginLifetime: How long a login waits for its callback; 15 minutes.
    /// - Throws: ``AuthError/Code/configuration`` when the key or secret is empty,
    ///   `SOCIALLOGIN_EMULATOR_HOST` is malformed or not a loopback host (the message names the
    ///   variable), or `emulatorHost` is not a loopback host.
    public init(
      consumerKey: String,
      consumerSecret: Secret,
      accessType: OAuth1Client.AccessType? = nil,
      forceLogin: Bool = false,
      includeEmail: Bool = true,
      endpoints: Endpoints = .production,
      emulatorHost: EmulatorHost? = nil,
      environment: [String: String] = ProcessInfo.processInfo.environment,
      pendingLoginLifetime: TimeInterval = OAuth1Client.defaultLoginLifetime
    ) throws(AuthError) {
      guard !consumerKey.isEmpty, !consumerSecret.isEmpty else {
        throw AuthError(
          .configuration, "OAuth 1.0a needs a non-empty consumer key and consumer secret.",
          provider: .twitter)
      }
      self.consumerKey = consumerKey
      self.consumerSecret = consumerSecret
      self.accessType = accessType
      self.forceLogin = forceLogin
      self.includeEmail = includeEmail
      self.endpoints = endpoints
      endpointTable = try EndpointTable(
        provider: .twitter, label: "X", names: Self.endpointNames, emulatorHost: emulatorHost,
        environment: environment)
      self.pendingLoginLifetime = pendingLoginLifetime
    }

    /// Points the endpoint called `name` (one of ``endpointNames``) at `url`.
    ///
    /// - Throws: ``AuthError/Code/configuration`` for an unknown name, or a URL that is neither
    ///   `https` nor `http` to a loopback host (every endpoint carries a secret or a token).
    public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
      try endpointTable.set(name, to: url, in: &endpoints, fields: Self.endpointFields)
    }

    /// The endpoints actually used: an endpoint set with ``setEndpoint(_:to:)`` exactly as
    /// given; the others, when on X's production hosts, mapped onto ``emulatorHost`` when one is
    /// set (endpoints assigned on other hosts are used as they are).
    public var resolvedEndpoints: Endpoints {
      endpointTable.resolve(
        endpoints, fields: Self.endpointFields, emulator: emulatorHost,
        mapsOnly: XProvider.isProductionHost)
    }
  }

  /// Which of X's two sign-in protocols a provider speaks.
  ///
  /// The CLI builds one from its flags (`--oauth1` picks the legacy flow) and then applies
  /// `--endpoint NAME=URL` through ``setEndpoint(_:to:)``, whichever flow it is:
  ///
  /// ```swift
  /// var flow: XProvider.Flow =
  ///   oauth1
  ///   ? try .oauth1(consumerKey: clientID, consumerSecret: Secret(secret))
  ///   : try .oauth2(clientID: clientID, clientSecret: secret.map { Secret($0) })
  /// try flow.setEndpoint("token", to: URL(string: "http://127.0.0.1:9199/api.x.com/2/oauth2/token")!)
  /// let provider = XProvider(flow: flow)
  /// ```
  public enum Flow: Sendable {
    /// OAuth 2.0 authorization code with PKCE.
    case oauth2(Configuration)
    /// OAuth 1.0a three-legged flow.
    case oauth1(OAuth1Configuration)

    /// OAuth 2.0 with the default scopes and endpoints.
    /// - Parameters:
    ///   - clientID: The OAuth 2.0 client id.
    ///   - clientSecret: The secret of a confidential client; `nil` for a public one.
    ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read (the process's environment
    ///     by default; `[:]` ignores it).
    /// - Throws: as ``Configuration/init(clientID:clientSecret:scopes:userFields:endpoints:emulatorHost:environment:pendingLoginLifetime:requestTimeout:)``.
    public static func oauth2(
      clientID: String, clientSecret: Secret? = nil,
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(AuthError) -> Flow {
      .oauth2(
        try Configuration(
          clientID: clientID, clientSecret: clientSecret, environment: environment))
    }

    /// OAuth 1.0a with the default endpoints.
    /// - Parameters:
    ///   - consumerKey: The consumer (API) key.
    ///   - consumerSecret: The consumer (API key) secret.
    ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read (the process's environment
    ///     by default; `[:]` ignores it).
    /// - Throws: as ``OAuth1Configuration/init(consumerKey:consumerSecret:accessType:forceLogin:includeEmail:endpoints:emulatorHost:environment:pendingLoginLifetime:)``.
    public static func oauth1(
      consumerKey: String, consumerSecret: Secret,
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(AuthError) -> Flow {
      .oauth1(
        try OAuth1Configuration(
          consumerKey: consumerKey, consumerSecret: consumerSecret, environment: environment))
    }

    /// The endpoint names of this flow (what `--endpoint` accepts).
    public var endpointNames: [String] {
      switch self {
      case .oauth2: Configuration.endpointNames
      case .oauth1: OAuth1Configuration.endpointNames
      }
    }

    /// Whether this is the OAuth 1.0a flow.
    public var isOAuth1: Bool {
      if case .oauth1 = self { return true }
      return false
    }

    /// Points the endpoint called `name` of this flow at `url`.
    /// - Throws: ``AuthError/Code/configuration`` for a name the flow does not have.
    public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
      switch self {
      case .oauth2(var configuration):
        try configuration.setEndpoint(name, to: url)
        self = .oauth2(configuration)
      case .oauth1(var configuration):
        try configuration.setEndpoint(name, to: url)
        self = .oauth1(configuration)
      }
    }
  }
}

extension XProvider {
  /// Whether `url` is on one of X's production hosts (`x.com`, `twitter.com` and their
  /// subdomains), which the emulator serves.
  static func isProductionHost(_ url: URL) -> Bool {
    guard let host = url.host?.lowercased() else { return false }
    return ["x.com", "twitter.com"].contains { host == $0 || host.hasSuffix("." + $0) }
  }
}
