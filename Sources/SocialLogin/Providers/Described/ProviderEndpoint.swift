/// One endpoint of a ``ProviderDescription``: the name it is overridden by
/// (`--endpoint NAME=URL`) and its production URL.
///
/// The production URL is a template: `{tenant}` and the description's other
/// ``ProviderDescription/parameters`` are substituted. The emulator serves an endpoint under
/// its production host and path, so the same value tells the emulator what to serve and the
/// SDK where to send.
public struct ProviderEndpoint: Hashable, Sendable, Codable {
  /// The HTTP method a request to the endpoint uses.
  public enum Method: String, Hashable, Sendable, Codable {
    /// `GET`.
    case get = "GET"
    /// `POST` (a form body).
    case post = "POST"
    /// `DELETE` (GitHub's grant revocation).
    case delete = "DELETE"
  }

  /// The override name (`authorize`, `token`, `keys`, `userinfo`, `profile`, ...).
  public var name: String
  /// The production URL template, `https` only.
  public var production: String
  /// The method; `POST` for token, revocation and device endpoints, `GET` otherwise.
  public var method: Method

  /// Creates an endpoint; `method` defaults to `GET` (``ProviderDescription`` reads the
  /// token, revocation and device endpoints with `POST` whatever is set here unless the
  /// provider's style says otherwise).
  public init(name: String, production: String, method: Method = .get) {
    self.name = name
    self.production = production
    self.method = method
  }
}
