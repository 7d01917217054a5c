import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Providers pointed at an emulator, with the emulator's default apps.
enum EmulatedProviders {
  static func x(_ emulator: ProviderEmulator, clock: any AuthClock) throws -> XProvider {
    XProvider(
      configuration: try .init(
        clientID: EmulatorApps.twitterClientID,
        clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host,
        environment: [:]),
      clock: clock)
  }

  static func xOAuth1(_ emulator: ProviderEmulator, clock: any AuthClock) throws -> XProvider {
    XProvider(
      oauth1: try .init(
        consumerKey: EmulatorApps.twitterConsumerKey,
        consumerSecret: Secret(EmulatorApps.twitterConsumerSecret), emulatorHost: emulator.host,
        environment: [:]),
      clock: clock)
  }

  static func facebook(_ emulator: ProviderEmulator, clock: any AuthClock) throws
    -> FacebookProvider
  {
    FacebookProvider(
      configuration: try .init(
        appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
        emulatorHost: emulator.host, environment: [:]),
      clock: clock)
  }

  static func line(_ emulator: ProviderEmulator, clock: any AuthClock) throws -> LINEProvider {
    LINEProvider(
      configuration: try .init(
        channelID: EmulatorApps.lineChannelID,
        channelSecret: Secret(EmulatorApps.lineChannelSecret), emulatorHost: emulator.host,
        environment: [:]),
      clock: clock)
  }
}

/// Plain HTTP calls to the emulator (URLSession, redirects not followed).
enum RawHTTP {
  struct Answer {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: body) }
  }

  static func send(
    _ method: String, _ url: URL, body: Data? = nil, contentType: String? = nil,
    headers: [String: String] = [:]
  ) async throws -> Answer {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.timeoutInterval = 10
    request.httpBody = body
    if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await session.data(for: request)
    let http = response as? HTTPURLResponse
    var fields: [String: String] = [:]
    for (name, value) in http?.allHeaderFields ?? [:] {
      fields[String(describing: name).lowercased()] = String(describing: value)
    }
    return Answer(status: http?.statusCode ?? 0, headers: fields, body: data)
  }

  static func form(_ url: URL, _ pairs: [(String, String)], headers: [String: String] = [:])
    async throws -> Answer
  {
    var components = URLComponents()
    components.queryItems = pairs.map { URLQueryItem(name: $0.0, value: $0.1) }
    let body = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    return try await send(
      "POST", url, body: Data(body.utf8), contentType: "application/x-www-form-urlencoded",
      headers: headers)
  }

  static func json(_ method: String, _ url: URL, _ text: String) async throws -> Answer {
    try await send(method, url, body: Data(text.utf8), contentType: "application/json")
  }

  static let session = URLSession(
    configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)

  final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }
  }
}

extension ProviderEmulator {
  /// `path` under the emulator's base URL.
  func at(_ path: String) -> URL { URL(string: baseURL.absoluteString + path)! }
}
