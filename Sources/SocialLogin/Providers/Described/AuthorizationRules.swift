/// How a described provider's authorization request is built.
///
/// SocialLogin always sends `state` and PKCE S256, and a nonce whenever an ID token is
/// coming, even where a provider calls them optional: a provider that ignores them loses
/// nothing, and one that honours them is protected.
public struct AuthorizationRules: Hashable, Sendable, Codable {
  /// One fixed query parameter.
  public struct Parameter: Hashable, Sendable, Codable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a parameter.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The scopes a login asks for when the caller names none.
  public var defaultScopes: [String]
  /// What joins scopes in the request: a space (RFC 6749), or Kakao's comma.
  public var scopeSeparator: String
  /// Whether the request carries `scope` at all; NAVER ignores it (consent items are set in
  /// its console), so it is not sent.
  public var sendsScope: Bool
  /// Parameters every authorization request carries, in order.
  public var extraParameters: [Parameter]
  /// Callback parameters kept in the credential's ``Credential/extra``: each parameter's
  /// ``Parameter/name`` is the callback's, its ``Parameter/value`` the key it is kept under
  /// (LINE's `friendship_status_changed`).
  public var keptCallbackParameters: [Parameter]

  /// Creates the rules: `openid profile email`-style defaults are the description's to set;
  /// here none, space-separated, sent, no extra parameters.
  public init(
    defaultScopes: [String] = [],
    scopeSeparator: String = " ",
    sendsScope: Bool = true,
    extraParameters: [Parameter] = [],
    keptCallbackParameters: [Parameter] = []
  ) {
    self.defaultScopes = defaultScopes
    self.scopeSeparator = scopeSeparator
    self.sendsScope = sendsScope
    self.extraParameters = extraParameters
    self.keptCallbackParameters = keptCallbackParameters
  }
}
