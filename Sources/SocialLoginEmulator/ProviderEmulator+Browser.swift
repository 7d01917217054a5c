import Foundation
import SocialLogin

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ProviderEmulator {
  /// Plays the browser for one authorization URL: GETs it over HTTP without following the
  /// final redirect and returns where the provider sent the user (the app's redirect URI with
  /// `code` and `state`, or an error). A `response_mode=form_post` page (Sign in with Apple)
  /// is returned as its form's action with the fields it would POST in the query: the same
  /// parameters `AuthorizationCallback(formBody:)` reads from the POST. A consent page is answered by clicking "Allow" when
  /// `allowConsent` is `true`, else "Cancel".
  ///
  /// - Throws: `AuthError.Code.invalidResponse` when the page neither redirects nor shows a
  ///   consent page (an error page for a bad `client_id`, for example).
  public func approve(_ url: URL, allowConsent: Bool = true) async throws -> URL {
    var next = url
    for _ in 0..<4 {
      let (body, response) = try await EmulatorBrowser.session.data(from: next)
      let http = response as? HTTPURLResponse
      let status = http?.statusCode ?? 0
      if (300..<400).contains(status), let location = http?.value(forHTTPHeaderField: "Location"),
        let target = URL(string: location, relativeTo: next)?.absoluteURL
      {
        guard target.host == baseURL.host, target.port == baseURL.port,
          target.path.hasPrefix("/_emulator") == false
        else { return target }
        next = target
        continue
      }
      let page = String(decoding: body, as: UTF8.self)
      if status == 200, let posted = EmulatorBrowser.formPost(in: page) { return posted }
      let id = allowConsent ? "allow" : "deny"
      guard status == 200, let link = EmulatorBrowser.link(id: id, in: page),
        let target = URL(string: link, relativeTo: baseURL)?.absoluteURL
      else {
        throw AuthError(
          .invalidResponse,
          "The emulator answered the authorization URL with \(status) instead of a redirect: "
            + String(page.prefix(300)), httpStatus: status)
      }
      next = target
    }
    throw AuthError(.invalidResponse, "The emulator redirected too often.")
  }

  /// A `HeadlessUserAgent` whose browser is ``approve(_:allowConsent:)``: logins through it
  /// complete over real HTTP without a browser or a loopback listener.
  public func headlessAgent(redirectURI: String = "http://127.0.0.1/callback") -> HeadlessUserAgent
  {
    HeadlessUserAgent(redirectURI: redirectURI) { [self] url in try await approve(url) }
  }
}

/// The URL session of ``ProviderEmulator/approve(_:allowConsent:)``: it never follows redirects.
enum EmulatorBrowser {
  static let session = URLSession(
    configuration: .ephemeral, delegate: RedirectRefuser(), delegateQueue: nil)

  /// The `href` of the `<a id="ID" href="...">` on an emulator consent page, unescaped.
  static func link(id: String, in page: String) -> String? {
    guard let anchor = page.range(of: "<a id=\"\(id)\" href=\""),
      let end = page[anchor.upperBound...].firstIndex(of: "\"")
    else { return nil }
    return unescape(String(page[anchor.upperBound..<end]))
  }

  static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
  }

  /// The `<form id="form_post" method="POST" action="…">` of an emulator form_post page as
  /// the action URL with the hidden fields in its query; `nil` for any other page.
  static func formPost(in page: String) -> URL? {
    let opening = "<form id=\"form_post\" method=\"POST\" action=\""
    guard let start = page.range(of: opening),
      let end = page[start.upperBound...].firstIndex(of: "\"")
    else { return nil }
    let action = unescape(String(page[start.upperBound..<end]))
    var fields: [(String, String)] = []
    var rest = page[end...]
    let input = "<input type=\"hidden\" name=\""
    while let field = rest.range(of: input) {
      guard let nameEnd = rest[field.upperBound...].firstIndex(of: "\""),
        let valueStart = rest[nameEnd...].range(of: "value=\""),
        let valueEnd = rest[valueStart.upperBound...].firstIndex(of: "\"")
      else { return nil }
      fields.append(
        (
          unescape(String(rest[field.upperBound..<nameEnd])),
          unescape(String(rest[valueStart.upperBound..<valueEnd]))
        ))
      rest = rest[valueEnd...]
    }
    let query = FormEncoding.encode(fields)
    return URL(string: action + (action.contains("?") ? "&" : "?") + query)
  }

  final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse,
      newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }
  }
}
