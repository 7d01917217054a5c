import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

extension OAuth1Tests {
  @Suite(.timeLimit(.minutes(5))) struct SignerTests {
    static let documentedParameterString =
      "include_entities=true&oauth_consumer_key=xvz1evFS4wEEPTGEFPHBog"
      + "&oauth_nonce=kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg&oauth_signature_method=HMAC-SHA1"
      + "&oauth_timestamp=1318622958"
      + "&oauth_token=370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb&oauth_version=1.0"
      + "&status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21"

    @Test(
      "X worked example: the signature depends on the documented base URL",
      arguments: [
        ("https://api.twitter.com/1.1/statuses/update.json", "hCtSmYh+iHYCEqBWrE7C7hYmtUk="),
        ("https://api.x.com/1.1/statuses/update.json", "Ls93hJiZbQ3akF3HF3x1Bz8/zU4="),
        ("https://api.twitter.com/1/statuses/update.json", "tnnArxj06cWHq44gCs1OSKk/jLY="),
      ])
    func reproducesDocumentedSignatures(baseURL: String, expected: String) throws {
      let result = try XExample.signer().signature(
        for: XExample.request(baseURL: baseURL), token: XExample.token,
        tokenSecret: XExample.tokenSecret, nonce: XExample.nonce, timestamp: XExample.timestamp)
      #expect(result.parameterString == Self.documentedParameterString)
      #expect(result.signature == expected)
    }

    @Test func reproducesDocumentedBaseString() throws {
      let result = try XExample.signer().signature(
        for: XExample.request(baseURL: "https://api.twitter.com/1.1/statuses/update.json"),
        token: XExample.token, tokenSecret: XExample.tokenSecret, nonce: XExample.nonce,
        timestamp: XExample.timestamp)
      #expect(
        result.baseString
          == "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities"
          + "%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFab"
          + "xSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp"
          + "%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oa"
          + "uth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%252"
          + "0signed%2520OAuth%2520request%2521")
    }

    @Test("sign() uses the injected clock and nonce and writes the documented header")
    func signWritesDocumentedHeader() throws {
      let clock = ManualClock(wallTime: Date(timeIntervalSince1970: 1_318_622_958))
      let request = try XExample.request(baseURL: "https://api.twitter.com/1/statuses/update.json")
      let signed = try XExample.signer(clock: clock).sign(
        request, token: XExample.token, tokenSecret: XExample.tokenSecret)
      #expect(
        signed.headers["Authorization"]
          == #"OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", "#
          + #"oauth_nonce="kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "#
          + #"oauth_signature="tnnArxj06cWHq44gCs1OSKk%2FjLY%3D", "#
          + #"oauth_signature_method="HMAC-SHA1", oauth_timestamp="1318622958", "#
          + #"oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "#
          + #"oauth_version="1.0""#)
      // Nothing else changes.
      #expect(signed.body == request.body)
      #expect(signed.url == request.url)
      #expect(signed.headers["Content-Type"] == request.headers["Content-Type"])
    }

    @Test(
      "encoding pitfalls: RFC 3986 unreserved only, UTF-8, %20",
      arguments: [
        ("!", "%21"), ("*", "%2A"), ("'", "%27"), ("(", "%28"), (")", "%29"),
        ("☃", "%E2%98%83"), ("a b", "a%20b"), ("a+b", "a%2Bb"), ("~", "~"), ("-._", "-._"),
        ("https://app.example/cb", "https%3A%2F%2Fapp.example%2Fcb"), ("é", "%C3%A9"),
      ])
    func encodesLikeOAuth(raw: String, encoded: String) {
      #expect(OAuth1Signer.percentEncode(raw) == encoded)
      #expect(OAuth1Signer.normalizedParameterString([("k", raw)]) == "k=" + encoded)
    }

    @Test func spaceIsNeverPlus() throws {
      let request = TransportRequest.form(
        url: try #require(URL(string: "https://api.x.com/r?q=a+b%20c")), fields: [("s", "x y")])
      let result = try XExample.signer().signature(
        for: request, token: nil, tokenSecret: nil, nonce: "n", timestamp: "1")
      #expect(!result.parameterString.contains("+"))
      #expect(result.parameterString.contains("q=a%20b%20c"))
      #expect(result.parameterString.contains("s=x%20y"))
    }

    @Test func callbackSlashesAreEncodedInHeader() throws {
      let request = TransportRequest(
        method: "POST", url: try #require(URL(string: "https://api.x.com/oauth/request_token")))
      let result = try XExample.signer().signature(
        for: request, token: nil, tokenSecret: nil,
        oauthParameters: [("oauth_callback", "https://app.example/x/cb")], nonce: "n",
        timestamp: "1")
      #expect(
        result.authorizationHeader.contains(#"oauth_callback="https%3A%2F%2Fapp.example%2Fx%2Fcb""#)
      )
      #expect(
        result.parameterString.hasPrefix("oauth_callback=https%3A%2F%2Fapp.example%2Fx%2Fcb&"))
      #expect(!result.authorizationHeader.contains("oauth_token="))
    }

    @Test("duplicate names sort by encoded value, names by encoded name (byte order)")
    func sortsDuplicatesByEncodedValue() {
      #expect(
        OAuth1Signer.normalizedParameterString([("a", "z"), ("a", "~"), ("a", "ä"), ("a", "a b")])
          == "a=%C3%A4&a=a%20b&a=z&a=~")
      #expect(
        OAuth1Signer.normalizedParameterString([("b", "1"), ("a-b", "2"), ("a b", "3"), ("A", "4")])
          == "A=4&a%20b=3&a-b=2&b=1")
    }

    @Test func rfc5849ExampleParameters() throws {
      // RFC 5849 §3.4.1.3: query, form body (with `+` and a name without `=`) and header.
      var request = TransportRequest(
        method: "POST",
        url: try #require(
          URL(string: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b")),
        body: Data("c2&a3=2+q".utf8))
      request.headers["Content-Type"] = "application/x-www-form-urlencoded; charset=utf-8"
      let parameters =
        try OAuth1Signer.requestParameters(of: request) + [
          ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
          ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"),
          ("oauth_nonce", "7d8f3e4a"),
        ]
      #expect(
        OAuth1Signer.normalizedParameterString(parameters)
          == "a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2"
          + "&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201"
          + "&oauth_token=kkk9d7dh3k39sjv7")
    }

    @Test func nonFormBodiesAreNotSigned() throws {
      let url = try #require(URL(string: "https://api.x.com/2/tweets"))
      let json = try TransportRequest.json(url: url, body: ["text": "hi"])
      let parameters = try OAuth1Signer.requestParameters(of: json)
      #expect(parameters.isEmpty)
      var untyped = TransportRequest(method: "POST", url: url, body: Data("a=1".utf8))
      #expect(try OAuth1Signer.requestParameters(of: untyped).isEmpty)
      untyped.headers["Content-Type"] = "Application/X-WWW-Form-URLEncoded"
      #expect(try OAuth1Signer.requestParameters(of: untyped).map(\.0) == ["a"])
    }

    @Test func existingSignatureParameterIsIgnored() throws {
      let request = TransportRequest(
        url: try #require(URL(string: "https://api.x.com/r?oauth_signature=abc&x=1")))
      #expect(try OAuth1Signer.requestParameters(of: request).map(\.0) == ["x"])
    }

    @Test func signingKeyEncodesAndEndsWithAmpersandWithoutTokenSecret() {
      #expect(OAuth1Signer.signingKey(consumerSecret: "cs", tokenSecret: nil).revealed == "cs&")
      #expect(
        OAuth1Signer.signingKey(consumerSecret: "a&b c", tokenSecret: nil).revealed == "a%26b%20c&")
      #expect(
        OAuth1Signer.signingKey(consumerSecret: "cs", tokenSecret: "t/s").revealed == "cs&t%2Fs")
    }

    @Test(
      "base string URI: lower-case scheme and host, default ports dropped, no query or fragment",
      arguments: [
        ("HTTP://EXAMPLE.COM:80/r%20v/X?id=123", "http://example.com/r%20v/X"),
        ("https://Api.X.com:443/1.1/a.json?x=1#frag", "https://api.x.com/1.1/a.json"),
        ("https://api.x.com:8443/a", "https://api.x.com:8443/a"),
        ("http://example.com:443/", "http://example.com:443/"),
        ("https://example.com:80/", "https://example.com:80/"),
        ("https://example.com", "https://example.com/"),
        ("https://user:pass@example.com/p", "https://example.com/p"),
        ("http://127.0.0.1:8080/oauth/request_token", "http://127.0.0.1:8080/oauth/request_token"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
      ])
    func normalizesBaseURI(url: String, expected: String) throws {
      #expect(try OAuth1Signer.baseStringURI(try #require(URL(string: url))) == expected)
    }

    @Test func relativeURLIsAConfigurationError() throws {
      let url = try #require(URL(string: "/1.1/statuses/update.json"))
      #expect {
        try OAuth1Signer.baseStringURI(url)
      } throws: { ($0 as? AuthError)?.code == .configuration }
    }

    @Test func methodIsUpperCased() throws {
      let url = try #require(URL(string: "https://api.x.com/r"))
      let result = try XExample.signer().signature(
        for: TransportRequest(method: "post", url: url), token: nil, tokenSecret: nil,
        nonce: "n", timestamp: "1")
      #expect(result.baseString.hasPrefix("POST&"))
    }

    @Test func realmIsInHeaderButNotSigned() throws {
      let url = try #require(URL(string: "https://api.x.com/r"))
      var signer = XExample.signer()
      let plain = try signer.signature(
        for: TransportRequest(url: url), token: "t", tokenSecret: "s", nonce: "n", timestamp: "1")
      signer.realm = "Example \"API\""
      let withRealm = try signer.signature(
        for: TransportRequest(url: url), token: "t", tokenSecret: "s", nonce: "n", timestamp: "1")
      #expect(withRealm.signature == plain.signature)
      #expect(withRealm.authorizationHeader.hasPrefix(#"OAuth realm="Example \"API\"", oauth_"#))
      #expect(!withRealm.parameterString.contains("realm"))
    }

    @Test(
      "extra protocol parameters must be new oauth_* names",
      arguments: ["oauth_token", "oauth_signature", "oauth_nonce", "x_auth_access_type", "status"])
    func rejectsBadExtraParameters(name: String) throws {
      let url = try #require(URL(string: "https://api.x.com/r"))
      #expect {
        try XExample.signer().sign(TransportRequest(url: url), oauthParameters: [(name, "v")])
      } throws: { ($0 as? AuthError)?.code == .configuration }
    }

    @Test func nonceIsRandomASCIIAlphanumeric() {
      let first = OAuth1Signer.randomNonce()
      let second = OAuth1Signer.randomNonce()
      #expect(first.count == 32)
      #expect(first != second)
      #expect(
        first.utf8.allSatisfy {
          (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
        })
      #expect(OAuth1Signer.randomNonce(length: 7).count == 7)
    }

    @Test func timestampComesFromClockAndOffset() {
      let clock = ManualClock(wallTime: Date(timeIntervalSince1970: 1_700_000_000.9))
      var signer = XExample.signer(clock: clock)
      #expect(signer.currentTimestamp() == "1700000000")
      clock.advance(by: .seconds(60))
      #expect(signer.currentTimestamp() == "1700000060")
      signer.timestampOffset = -30
      #expect(signer.currentTimestamp() == "1700000030")
    }

    @Test func defaultSignerUsesFreshNonces() throws {
      let url = try #require(URL(string: "https://api.x.com/r"))
      let signer = OAuth1Signer(consumerKey: "ck", consumerSecret: "cs")
      let first = try signer.sign(TransportRequest(url: url))
      let second = try signer.sign(TransportRequest(url: url))
      let firstNonce = FlowFixture.headerItems(first.headers["Authorization"])["oauth_nonce"]
      let secondNonce = FlowFixture.headerItems(second.headers["Authorization"])["oauth_nonce"]
      #expect(firstNonce?.count == 32)
      #expect(firstNonce != secondNonce)
    }

    @Test func descriptionsHideSecrets() {
      let signer = XExample.signer()
      #expect(!String(describing: signer).contains(XExample.consumerSecret.revealed))
      var dumped = ""
      dump(signer, to: &dumped)
      #expect(!dumped.contains(XExample.consumerSecret.revealed))
    }
  }
}
