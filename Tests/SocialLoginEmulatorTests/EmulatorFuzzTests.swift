import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

@Suite(
  "Emulator: malformed requests get the provider's error, never a crash", .timeLimit(.minutes(3)))
struct EmulatorFuzzTests {
  static let paths = [
    "/www.facebook.com/v25.0/dialog/oauth", "/graph.facebook.com/v25.0/oauth/access_token",
    "/graph.facebook.com/debug_token", "/graph.facebook.com/v25.0/me", "/x.com/i/oauth2/authorize",
    "/api.x.com/2/oauth2/token", "/api.x.com/2/oauth2/revoke", "/api.x.com/2/users/me",
    "/api.x.com/oauth/request_token", "/api.x.com/oauth/authenticate",
    "/api.x.com/oauth/access_token",
    "/api.x.com/1.1/account/verify_credentials.json", "/api.x.com/1.1/oauth/invalidate_token",
    "/access.line.me/oauth2/v2.1/authorize", "/api.line.me/oauth2/v2.1/token",
    "/api.line.me/oauth2/v2.1/verify", "/api.line.me/oauth2/v2.1/revoke", "/api.line.me/v2/profile",
    "/oidc/token", "/oidc/userinfo", "/oidc/introspect", "/oidc/revoke", "/_emulator/faults",
    "/_emulator/users", "/_emulator/lifetimes", "/_emulator/settings", "/nowhere.example/x",
  ]

  /// A deterministic generator, so a failure can be replayed.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func randomText(_ generator: inout SplitMix, maxLength: Int) -> String {
    let alphabet = Array("abcXYZ019=&%+-_.~!*'();:@$,/?#[]{}\"\\ \t\u{7F}é☃\u{0}")
    let length = Int.random(in: 0...maxLength, using: &generator)
    return String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
  }

  @Test(arguments: [1, 2, 3, 4])
  func randomRequestsAreAnsweredAndTheEmulatorKeepsServing(seed: UInt64) async throws {
    try await ProviderEmulator.run { emulator in
      var generator = SplitMix(state: seed)
      for _ in 0..<60 {
        let path = Self.paths.randomElement(using: &generator) ?? "/"
        let query =
          Self.randomText(&generator, maxLength: 80)
          .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let names = ["code", "grant_type", "client_id", "redirect_uri", "state", "token", "fields"]
        let name = names.randomElement(using: &generator) ?? "x"
        let target = path + "?\(name)=\(query)"
        let body = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        }
        let method = ["GET", "POST", "DELETE", "PUT"].randomElement(using: &generator) ?? "GET"
        let type =
          ["application/x-www-form-urlencoded", "application/json", "text/plain"]
          .randomElement(using: &generator) ?? "text/plain"
        var head =
          "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(emulator.port)\r\n"
          + "Content-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
        if Bool.random(using: &generator) {
          let authorization =
            [
              "Basic !!!", "Basic " + Data(body.prefix(20)).base64EncodedString(), "Bearer ",
              "OAuth oauth_consumer_key=\"x", "OAuth a=b, c", "Basic Og==",
            ]
            .randomElement(using: &generator) ?? ""
          head += "Authorization: \(authorization)\r\n"
        }
        var bytes = Array((head + "\r\n").utf8) + body
        let isNoise = Int.random(in: 0..<8, using: &generator) == 0
        if isNoise {
          // Pure noise: random bytes where a request should be.
          bytes = (0..<Int.random(in: 1...400, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
          }
        }
        // 60 s: the deadline of a test, not a property of the server. Run beside the other
        // emulator suites on a loaded 2-core machine a request can wait several seconds for a
        // thread (that once showed up here as "no answer" with a 5-second socket timeout).
        let exchange = await RawSocket.exchange(port: emulator.port, bytes, timeoutSeconds: 60)
        let answer = exchange.bytes
        let status = RawSocket.status(answer)
        #expect(!exchange.timedOut, "\(method) \(target): no answer within 60 s")
        if isNoise {
          // The server answers 4xx or, for an incomplete request from a closed peer, nothing.
          #expect(status.map { (400..<500).contains($0) } ?? answer.isEmpty)
        } else {
          #expect(status.map { (200..<600).contains($0) } ?? false, "\(method) \(target)")
        }
        #expect(status != 500, "\(method) \(target) gave 500")
      }
      let status = try await RawHTTP.send("GET", emulator.at("/"))
      #expect(status.status == 200)
    }
  }

  @Test func hugeParametersAndBadFormsGetProviderErrors() async throws {
    try await ProviderEmulator.run { emulator in
      let huge = String(repeating: "A", count: 200_000)
      let token = try await RawHTTP.form(
        emulator.at("/api.x.com/2/oauth2/token"),
        [
          ("grant_type", "refresh_token"), ("refresh_token", huge),
          ("client_id", EmulatorApps.twitterPublicClientID),
        ])
      #expect(token.status == 400)
      #expect(token.json?["error"]?.stringValue == "invalid_request")

      let badForm = try await RawHTTP.send(
        "POST", emulator.at("/api.line.me/oauth2/v2.1/token"), body: Data("a=%zz&b".utf8),
        contentType: "application/x-www-form-urlencoded")
      #expect(badForm.status == 400)
      #expect(badForm.json?["error"]?.stringValue == "invalid_request")

      let graph = try await RawHTTP.send(
        "GET",
        emulator.at(
          "/graph.facebook.com/v25.0/me?access_token=\(String(repeating: "x", count: 4000))"))
      #expect(graph.status == 400)
      #expect(graph.json?["error"]?["code"]?.int64Value == 190)

      let tooBig = try await RawHTTP.send(
        "POST", emulator.at("/oidc/token"), body: Data(count: 2 * 1024 * 1024),
        contentType: "application/x-www-form-urlencoded")
      #expect(tooBig.status == 413)

      let oauth1 = try await RawHTTP.send(
        "POST", emulator.at("/api.x.com/oauth/request_token"),
        headers: [
          "Authorization": "OAuth oauth_consumer_key=\"\(EmulatorApps.twitterConsumerKey)\""
        ])
      #expect(oauth1.status == 401)
      #expect(oauth1.json?["errors"]?.arrayValue?.first?["code"]?.int64Value == 32)
    }
  }
}
