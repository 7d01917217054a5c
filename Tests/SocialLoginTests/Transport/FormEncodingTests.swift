import Foundation
import SocialLogin
import Testing

extension TransportTests {
  @Suite(.timeLimit(.minutes(5))) struct FormEncodingTests {
    @Test(
      "form component encoding follows WHATWG",
      arguments: [
        ("☃", "%E2%98%83"),
        ("a b", "a+b"),
        ("a+b", "a%2Bb"),
        ("~", "%7E"),
        ("*-._", "*-._"),
        ("AZaz09", "AZaz09"),
        ("/?&=#%", "%2F%3F%26%3D%23%25"),
        ("é\n", "%C3%A9%0A"),
        ("", ""),
      ])
    func encodesFormComponents(input: String, expected: String) {
      #expect(FormEncoding.encodeComponent(input) == expected)
    }

    @Test(
      "RFC 3986 strict encoding keeps only unreserved characters",
      arguments: [
        ("☃", "%E2%98%83"),
        ("a b", "a%20b"),
        ("a+b", "a%2Bb"),
        ("~", "~"),
        ("*", "%2A"),
        ("-._", "-._"),
        ("!'()", "%21%27%28%29"),
        ("Ladies + Gentlemen", "Ladies%20%2B%20Gentlemen"),
      ])
    func percentEncodesStrictly(input: String, expected: String) {
      #expect(FormEncoding.percentEncodeRFC3986(input) == expected)
    }

    @Test func encodesFieldsInOrder() {
      let body = FormEncoding.encode([
        ("grant_type", "authorization_code"), ("code", "a b+c"),
        ("redirect_uri", "http://127.0.0.1:8/cb"),
      ])
      #expect(
        body
          == "grant_type=authorization_code&code=a+b%2Bc&redirect_uri=http%3A%2F%2F127.0.0.1%3A8%2Fcb"
      )
    }

    @Test(
      "round trips arbitrary strings",
      arguments: ["", "plain", "a b+c&d=e", "☃ snow 🧊", "%41%", "~*'!()", "line\r\nbreak", "=&=&"])
    func roundTrips(value: String) {
      let encoded = FormEncoding.encode([(value, value), ("k", value)])
      let decoded = FormEncoding.decode(encoded)
      #expect(decoded.count == 2)
      #expect(decoded.first?.0 == value)
      #expect(decoded.first?.1 == value)
      #expect(decoded.last?.1 == value)
    }

    @Test func decodesLikeWHATWG() {
      let fields = FormEncoding.decode("a=1&&b&c=x=y&d=%E2%98%83+%zz%4&=e&f=%ff")
      #expect(fields.map(\.0) == ["a", "b", "c", "d", "", "f"])
      #expect(fields.map(\.1) == ["1", "", "x=y", "☃ %zz%4", "e", "\u{FFFD}"])
    }

    @Test(
      "Basic client authentication form-encodes id and secret before base64 (RFC 6749 §2.3.1)",
      arguments: [
        ("id", "s:cret", "Basic aWQ6cyUzQWNyZXQ="),
        ("my:client id", "p%ss w:rd", "Basic bXklM0FjbGllbnQraWQ6cCUyNXNzK3clM0FyZA=="),
      ])
    func basicAuthorization(id: String, secret: String, expected: String) throws {
      let header = FormEncoding.basicAuthorization(clientID: id, clientSecret: secret)
      #expect(header == expected)
      let encoded = try #require(Data(base64Encoded: String(header.dropFirst("Basic ".count))))
      let pair = String(decoding: encoded, as: UTF8.self)
      let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
      #expect(parts.count == 2)
      #expect(FormEncoding.decodeComponent(parts[0]) == id)
      #expect(FormEncoding.decodeComponent(parts[1]) == secret)
    }

    @Test func formRequestSetsHeadersAndBody() throws {
      let url = try #require(URL(string: "https://auth.test/token"))
      let request = TransportRequest.form(
        url: url, fields: [("grant_type", "refresh_token"), ("refresh_token", "r 1")],
        headers: ["Authorization": "Basic abc"])
      #expect(request.method == "POST")
      #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
      #expect(request.headers["Accept"] == "application/json")
      #expect(request.headers["Authorization"] == "Basic abc")
      #expect(request.body == Data("grant_type=refresh_token&refresh_token=r+1".utf8))
    }

    @Test func jsonRequestEncodesSortedWithoutEscapedSlashes() throws {
      struct Body: Encodable {
        var requestUri = "http://localhost/cb"
        var postBody = "id_token=x"
      }
      let url = try #require(URL(string: "https://identitytoolkit.test/v1/accounts:signInWithIdp"))
      let request = try TransportRequest.json(url: url, body: Body(), headers: ["Accept": "*/*"])
      #expect(request.headers["Content-Type"] == "application/json")
      #expect(request.headers["Accept"] == "*/*")
      let text = String(decoding: try #require(request.body), as: UTF8.self)
      #expect(text == #"{"postBody":"id_token=x","requestUri":"http://localhost/cb"}"#)
    }

    @Test func jsonRequestWithUnencodableBodyThrowsConfiguration() throws {
      let url = try #require(URL(string: "https://x.test/"))
      #expect {
        try TransportRequest.json(url: url, body: ["value": Double.nan])
      } throws: { error in
        (error as? AuthError)?.code == .configuration
      }
    }
  }

  @Suite(.timeLimit(.minutes(5))) struct ResponseDecodingTests {
    struct Tokens: Decodable, Equatable {
      var accessToken: String
      var expiresIn: Int?

      enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
      }
    }

    @Test func decodesJSONWithACustomDecoder() throws {
      struct Profile: Decodable, Equatable {
        var displayName: String
        var pictureUrl: String?
      }
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      let response = TransportResponse(
        status: 200, body: Data(#"{"display_name":"Ann","picture_url":null}"#.utf8))
      #expect(try response.decodeJSON(decoder: decoder) == Profile(displayName: "Ann"))
    }

    @Test func decodesJSON() throws {
      let response = TransportResponse(
        status: 200, body: Data(#"{"access_token":"a","expires_in":60}"#.utf8))
      #expect(try response.decodeJSON(Tokens.self) == Tokens(accessToken: "a", expiresIn: 60))
    }

    @Test(
      "bad JSON gives invalidResponse with a clear message",
      arguments: [
        ("", "empty"),
        (#"{"access_token":"a","#, "not valid JSON"),
        (#"{"access_token":42}"#, "access_token"),
        (#"{"expires_in":1}"#, "missing key 'access_token'"),
        (#"[1,2]"#, "expected"),
        (#"{"access_token":null}"#, "null"),
      ])
    func explainsBadJSON(body: String, fragment: String) {
      let response = TransportResponse(status: 400, body: Data(body.utf8))
      do {
        _ = try response.decodeJSON(Tokens.self)
        Issue.record("decoding \(body) succeeded")
      } catch {
        #expect(error.code == .invalidResponse)
        #expect(error.httpStatus == 400)
        #expect(error.message.contains(fragment), "\(error.message)")
        #expect(error.message.contains("Tokens"))
      }
    }

    @Test func errorMessageNeverQuotesTheBody() {
      let response = TransportResponse(
        status: 200, body: Data(#"{"access_token":"SECRET-VALUE","expires_in":"soon"}"#.utf8))
      #expect {
        try response.decodeJSON(Tokens.self)
      } throws: { error in
        !String(describing: error).contains("SECRET-VALUE")
      }
    }

    @Test func parsesFormFieldsFirstValueWins() throws {
      let response = TransportResponse(
        status: 200,
        body: Data(
          "oauth_token=t%2B1&oauth_token_secret=s+2&oauth_callback_confirmed=true&oauth_token=x"
            .utf8))
      let fields = try response.formFields()
      #expect(fields["oauth_token"] == "t+1")
      #expect(fields["oauth_token_secret"] == "s 2")
      #expect(fields["oauth_callback_confirmed"] == "true")
    }

    @Test func formFieldsRejectNonUTF8() {
      let response = TransportResponse(status: 200, body: Data([0x61, 0x3D, 0xFF, 0xFE]))
      #expect {
        try response.formFields()
      } throws: { error in
        (error as? AuthError)?.code == .invalidResponse
      }
    }
  }
}
