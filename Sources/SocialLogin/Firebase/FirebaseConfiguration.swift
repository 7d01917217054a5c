import Foundation

extension FirebaseProvider {
  /// Where and as which project the SDK talks to Firebase Authentication.
  ///
  /// Every endpoint can be replaced (``setEndpoint(_:to:)`` with the names in
  /// ``endpointNames``), and with an emulator host every Identity Toolkit and Secure Token
  /// request goes to `http://HOST:PORT/identitytoolkit.googleapis.com/...` and
  /// `http://HOST:PORT/securetoken.googleapis.com/...`, the Firebase Auth emulator's scheme.
  ///
  /// ```swift
  /// var configuration = FirebaseProvider.Configuration(apiKey: "AIza...", projectID: "my-app")
  /// try configuration.setEndpoint("certs", to: URL(string: "http://127.0.0.1:8080/certs")!)
  /// ```
  public struct Configuration: Sendable {
    /// The environment variable the Firebase SDKs and this SDK read:
    /// `FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT`.
    public static let emulatorEnvironmentVariable = "FIREBASE_AUTH_EMULATOR_HOST"

    /// The names ``setEndpoint(_:to:)`` accepts: the Identity Toolkit v1 base URL, the Secure
    /// Token endpoint, and the x509 certificates that sign ID tokens.
    public static let endpointNames = endpointFields.map(\.name)
    /// Each endpoint name with the property it sets.
    static var endpointFields: [(name: String, field: WritableKeyPath<Configuration, URL>)] {
      [
        ("identitytoolkit", \.identityToolkitURL), ("securetoken", \.secureTokenURL),
        ("certs", \.certificatesURL),
      ]
    }

    /// The Web API key of the Firebase project (sent as `?key=`). It identifies the project; it
    /// is not a secret, but it is never logged either.
    public var apiKey: String
    /// The project id: the ID tokens' `aud` and the suffix of their `iss`.
    public var projectID: String
    /// The tenant, for multi-tenant (Identity Platform) projects.
    public var tenantID: String?
    /// `https://identitytoolkit.googleapis.com/v1`.
    public var identityToolkitURL: URL
    /// `https://securetoken.googleapis.com/v1/token`.
    public var secureTokenURL: URL
    /// Google's x509 certificates for Firebase ID tokens (PEM by key id).
    public var certificatesURL: URL
    /// The Firebase Auth emulator, when requests go there: a loopback host (`127.0.0.0/8`,
    /// `::1`, `localhost`). It moves where requests go; it never makes unsigned tokens
    /// acceptable by itself (see ``acceptsUnsignedEmulatorTokens``).
    public var emulatorHost: EmulatorHost?
    /// Whether ``FirebaseProvider/verifyIDToken(_:)`` accepts the unsigned (`alg: none`) ID
    /// tokens the Firebase Auth emulator issues. Off by default, and only code turns it on: no
    /// environment variable does, because an unsigned token comes from the caller, not from
    /// the emulator, and a `FIREBASE_AUTH_EMULATOR_HOST` left in a production `.env` would let
    /// any caller be any user while genuine tokens keep verifying. It takes effect only with a
    /// loopback ``emulatorHost`` and no emulator configuration error, and a ``LoginClient``
    /// created with it logs an ``AuthLogLevel/error`` record. For tests and local development
    /// against the emulator only.
    public var acceptsUnsignedEmulatorTokens = false
    /// The `requestUri` sent with `signInWithIdp`: Firebase requires one; for credentials
    /// obtained elsewhere `http://localhost` is accepted.
    public var requestURI: String
    /// Clock-skew tolerance for ID-token time claims, in seconds.
    public var leeway: TimeInterval
    /// How long one Firebase request may take.
    public var requestTimeout: Duration
    /// Which Firebase provider id a SocialLogin provider's session signs in as, for
    /// ``FirebaseAuth/signIn(with:rawNonce:)``. Providers not listed sign in as
    /// `oidc.<provider id>` with their ID token.
    public var providerIDs: [ProviderID: String]
    /// Set when `FIREBASE_AUTH_EMULATOR_HOST` is malformed or not a loopback host, or the
    /// explicit emulator host is not a loopback host: every request and every
    /// ``FirebaseProvider/verifyIDToken(_:)`` then fails with it, so a typo never sends
    /// sign-ins to production and no other machine is trusted with unsigned tokens.
    var emulatorHostError: AuthError?
    /// The overrides made with ``setEndpoint(_:to:)``, checked by the rule every provider shares.
    private var endpointTable = EndpointTable(
      provider: .firebase, label: "Firebase", names: Configuration.endpointNames)

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - apiKey: The project's Web API key.
    ///   - projectID: The project id.
    ///   - tenantID: The tenant, if any.
    ///   - emulatorHost: The Firebase Auth emulator, a loopback host; `nil` (the default) reads
    ///     `FIREBASE_AUTH_EMULATOR_HOST` from `environment`, else `SOCIALLOGIN_EMULATOR_HOST`
    ///     (like every other provider: `sociallogin emulator` serves Firebase too).
    ///   - environment: Where `FIREBASE_AUTH_EMULATOR_HOST` is read: the process's environment
    ///     by default; pass `[:]` so that no environment variable can move where requests go or
    ///     make unsigned tokens acceptable. A malformed or non-loopback value (or a
    ///     non-loopback `emulatorHost`) is not thrown here: it is the
    ///     ``AuthError/Code/configuration`` error, naming the variable, of every request and
    ///     verification made with this configuration.
    public init(
      apiKey: String,
      projectID: String,
      tenantID: String? = nil,
      emulatorHost: EmulatorHost? = nil,
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
      self.apiKey = apiKey
      self.projectID = projectID
      self.tenantID = tenantID
      identityToolkitURL = .known("https://identitytoolkit.googleapis.com/v1")
      secureTokenURL = .known("https://securetoken.googleapis.com/v1/token")
      certificatesURL = .known(
        "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")
      requestURI = "http://localhost"
      leeway = 60
      requestTimeout = .seconds(30)
      providerIDs = [
        .facebook: "facebook.com", .twitter: "twitter.com", "google": "google.com",
        .apple: "apple.com",
      ]
      do {
        // The Firebase convention first, then the variable every other provider follows (the
        // SocialLogin emulator serves Firebase under the same scheme): one rule for the
        // library and the CLI, loopback hosts only.
        var resolved = try EmulatorHost.resolve(
          emulatorHost, variable: Self.emulatorEnvironmentVariable, environment: environment,
          provider: .firebase)
        if resolved == nil {
          resolved = try EmulatorHost.resolve(nil, environment: environment, provider: .firebase)
        }
        self.emulatorHost = resolved
      } catch {
        emulatorHostError = error
      }
    }

    /// Replaces the endpoint `name` (one of ``endpointNames``).
    ///
    /// - Throws: ``AuthError/Code/configuration`` for an unknown name, or a URL that is neither
    ///   `https` nor `http` to a loopback host (the endpoints carry the API key, tokens and the
    ///   certificates that decide which tokens are trusted).
    public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
      try endpointTable.set(name, to: url)
      for (known, field) in Self.endpointFields where known == name {
        self[keyPath: field] = url
      }
    }

    /// Whether requests go to the Firebase Auth emulator.
    public var usesEmulator: Bool { emulatorHost != nil }

    /// Whether unsigned (`alg: none`) ID tokens are accepted: only when code asked for it
    /// (``acceptsUnsignedEmulatorTokens``), with an emulator host that is a loopback host, and
    /// no emulator configuration error.
    var acceptsUnsignedTokens: Bool {
      acceptsUnsignedEmulatorTokens && emulatorHostError == nil && emulatorHost?.isLoopback == true
    }

    /// `<identitytoolkit>/<path>?key=...`: the base mapped onto the emulator when one is set,
    /// unless ``setEndpoint(_:to:)`` set it (an override is used as given).
    func identityToolkit(_ path: String) throws(AuthError) -> URL {
      var base = resolved("identitytoolkit", identityToolkitURL).absoluteString
      while base.hasSuffix("/") { base.removeLast() }
      guard let url = URL(string: base + "/" + path) else {
        throw AuthError(.configuration, "The Identity Toolkit URL \(base) is not a URL.")
      }
      return try keyed(url)
    }

    /// The Secure Token endpoint with `?key=...`, mapped onto the emulator when one is set,
    /// unless ``setEndpoint(_:to:)`` set it (an override is used as given).
    func secureToken() throws(AuthError) -> URL {
      try keyed(resolved("securetoken", secureTokenURL))
    }

    /// `current` as ``EndpointTable/url(_:current:emulator:)`` resolves it.
    private func resolved(_ name: String, _ current: URL) -> URL {
      endpointTable.url(name, current: current, emulator: emulatorHost)
    }

    private func keyed(_ url: URL) throws(AuthError) -> URL {
      if let emulatorHostError { throw emulatorHostError }
      guard !apiKey.isEmpty else {
        throw AuthError(.configuration, "The Firebase API key is empty.", provider: .firebase)
      }
      guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
        throw AuthError(.configuration, "The Firebase endpoint \(url) is not a URL.")
      }
      var items = components.queryItems ?? []
      items.append(URLQueryItem(name: "key", value: apiKey))
      components.queryItems = items
      guard let result = components.url else {
        throw AuthError(.configuration, "The Firebase endpoint \(url) is not a URL.")
      }
      return result
    }

    /// The issuer of the project's ID tokens: `https://securetoken.google.com/<project>`.
    public var issuer: String { "https://securetoken.google.com/\(projectID)" }

    /// The Firebase provider id for a session of `provider`.
    func firebaseProviderID(for provider: ProviderID) -> String {
      providerIDs[provider] ?? "oidc.\(provider.rawValue)"
    }
  }
}
