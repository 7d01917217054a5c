import Foundation
import SocialLogin

/// Plays the user's browser against Glewlwyd the way its login page does: sign in with the
/// user's password (`POST /api/auth/`), consent for the client (`PUT /api/auth/grant/<client>`),
/// then follow the authorization URL with `g_continue` and return the `Location` it redirects to.
///
/// ```swift
/// let browser = GlewlwydBrowser(peer: peer, clientID: GlewlwydPeer.publicClient)
/// let agent = HeadlessUserAgent(redirectURI: peer.redirectURI) { try await browser.authorize($0) }
/// ```
public struct GlewlwydBrowser: Sendable {
  /// The server.
  public let peer: GlewlwydPeer
  /// The client the user consents to.
  public let clientID: String
  private let transport = URLSessionTransport()

  /// Creates a browser for `clientID` on `peer`.
  public init(peer: GlewlwydPeer, clientID: String) {
    self.peer = peer
    self.clientID = clientID
  }

  /// Signs in, consents, follows `url` and returns the redirect target (the callback URL).
  public func authorize(_ url: URL) async throws -> URL {
    let cookie = try await signIn()
    try await send(
      "PUT", peer.baseURL.appendingPathComponent("api/auth/grant/\(clientID)"),
      json: #"{"scope":"openid"}"#, cookie: cookie, expecting: 200)
    let separator = url.query == nil ? "?" : "&"
    guard let continued = URL(string: url.absoluteString + separator + "g_continue") else {
      throw PeerError("bad authorization URL")
    }
    let response = try await send("GET", continued, cookie: cookie, expecting: 302)
    guard let location = response.headers["Location"], let target = URL(string: location) else {
      throw PeerError("authorization response had no Location")
    }
    return target
  }

  /// Approves a device login the way the person with the phone does: signs in, consents,
  /// and opens the complete verification URI (`{issuer}/device?code=USER_CODE`) with
  /// `g_continue`; Glewlwyd answers with a redirect to its `prompt=deviceComplete` page.
  public func approveDevice(_ verificationURIComplete: URL) async throws {
    let cookie = try await signIn()
    try await send(
      "PUT", peer.baseURL.appendingPathComponent("api/auth/grant/\(clientID)"),
      json: #"{"scope":"openid"}"#, cookie: cookie, expecting: 200)
    guard let continued = URL(string: verificationURIComplete.absoluteString + "&g_continue")
    else { throw PeerError("bad verification URI") }
    let response = try await send("GET", continued, cookie: cookie, expecting: 302)
    guard let location = response.headers["Location"], location.contains("prompt=deviceComplete")
    else {
      throw PeerError(
        "the device verification did not complete: \(response.headers["Location"] ?? "no Location")"
      )
    }
  }

  private func signIn() async throws -> String {
    let response = try await send(
      "POST", peer.baseURL.appendingPathComponent("api/auth/"),
      json: #"{"username":"\#(GlewlwydPeer.user)","password":"\#(GlewlwydPeer.password)"}"#,
      cookie: nil, expecting: 200)
    guard let setCookie = response.headers["Set-Cookie"],
      let pair = setCookie.split(separator: ";").first
    else { throw PeerError("sign-in returned no session cookie") }
    return String(pair)
  }

  @discardableResult
  private func send(
    _ method: String, _ url: URL, json: String? = nil, cookie: String?, expecting status: Int
  ) async throws -> TransportResponse {
    var headers = HTTPHeaderFields()
    if json != nil { headers["Content-Type"] = "application/json" }
    if let cookie { headers["Cookie"] = cookie }
    let response = try await transport.send(
      TransportRequest(method: method, url: url, headers: headers, body: json.map { Data($0.utf8) })
    )
    guard response.status == status else {
      throw PeerError(
        "\(method) \(url.path) answered \(response.status), expected \(status): "
          + String(decoding: response.body.prefix(300), as: UTF8.self))
    }
    return response
  }
}
