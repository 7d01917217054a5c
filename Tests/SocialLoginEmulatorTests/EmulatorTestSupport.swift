import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Providers pointed at an emulator, with the emulator's default apps, sending through
/// `LoopbackTransport` (see ``RawHTTP``: `URLSession` on Linux spins a core while it waits,
/// and a key-set fetch timed out under a whole-suite load). Requests get at least 60 s: a
/// 10 s key-set fetch timed out once more with LoopbackTransport on a machine loaded far
/// beyond its two cores; these tests are about protocols, not the SDK's timeouts.
enum EmulatedProviders {
  static let transport = LoopbackTransport(minimumTimeout: .seconds(60))

  static func x(_ emulator: ProviderEmulator, clock: any AuthClock) throws -> XProvider {
    XProvider(
      configuration: try .init(
        clientID: EmulatorApps.twitterClientID,
        clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host,
        environment: [:]),
      transport: transport, clock: clock)
  }

  static func xOAuth1(_ emulator: ProviderEmulator, clock: any AuthClock) throws -> XProvider {
    XProvider(
      oauth1: try .init(
        consumerKey: EmulatorApps.twitterConsumerKey,
        consumerSecret: Secret(EmulatorApps.twitterConsumerSecret), emulatorHost: emulator.host,
        environment: [:]),
      transport: transport, clock: clock)
  }

  static func facebook(_ emulator: ProviderEmulator, clock: any AuthClock) throws
    -> FacebookProvider
  {
    FacebookProvider(
      configuration: try .init(
        appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
        emulatorHost: emulator.host, environment: [:]),
      transport: transport, clock: clock)
  }

  static func line(_ emulator: ProviderEmulator, clock: any AuthClock) throws -> LINEProvider {
    LINEProvider(
      configuration: try .init(
        channelID: EmulatorApps.lineChannelID,
        channelSecret: Secret(EmulatorApps.lineChannelSecret), emulatorHost: emulator.host,
        environment: [:]),
      transport: transport, clock: clock)
  }
}

extension EmulatedProviders {
  static func apple(_ emulator: ProviderEmulator, clock: any AuthClock) throws -> AppleProvider {
    let key = emulator.appleKey
    return AppleProvider(
      configuration: try .init(
        clientIDs: key.clientIDs, teamID: key.teamID, keyID: key.keyID,
        privateKeyPEM: Secret(key.privateKeyPEM), emulatorHost: emulator.host, environment: [:]),
      transport: transport, clock: clock)
  }
}

/// Plain HTTP calls to the emulator (redirects not followed), through `LoopbackTransport`: a
/// thread blocked in `recv(2)` per call instead of Foundation's `URLSession`, whose Linux
/// implementation spins a core while it waits for an answer — dozens of such calls at once
/// starved the emulators they were waiting for on a two-core machine.
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
    var fields = HTTPHeaderFields()
    if let contentType { fields["Content-Type"] = contentType }
    for (name, value) in headers { fields[name] = value }
    // The timeout is a hang guard for a loaded machine, not a speed check.
    let response = try await LoopbackTransport().send(
      TransportRequest(
        method: method, url: url, headers: fields, body: body, timeout: .seconds(60),
        maxResponseBytes: 16 << 20))
    var answered: [String: String] = [:]
    for field in response.headers {
      let name = field.name.lowercased()
      answered[name] = answered[name].map { $0 + ", " + field.value } ?? field.value
    }
    return Answer(status: response.status, headers: answered, body: response.body)
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
}

extension ProviderEmulator {
  /// `path` under the emulator's base URL.
  func at(_ path: String) -> URL { URL(string: baseURL.absoluteString + path)! }
}
