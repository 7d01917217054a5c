import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite("Described answers: hostile input")
struct DescribedAnswersHostileTests {
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  static func answer(
    _ body: String, status: Int = 200, description: ProviderDescription = .kakao
  ) throws(AuthError) -> Credential {
    try DescribedAnswers.tokenAnswer(
      TransportResponse(
        status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8)),
      description: description, receivedAt: now, requestedScopes: [], operation: "test")
  }

  @Test("numbers keep their exact text; integers past 2^53 stay exact in raw claims")
  func exactNumbers() throws {
    let value = try #require(
      DescribedJSON(parsing: Array(#"{"id":18446744073709551617,"f":1.5e3}"#.utf8)))
    #expect(value["id"] == .number("18446744073709551617"))
    #expect(value["id"]?.identifierText == "18446744073709551617")
    #expect(value["f"]?.identifierText == nil)
    #expect(value.jsonValue.objectValue?["id"] == .string("18446744073709551617"))
    let identity = try DescribedAnswers.identity(
      from: try #require(DescribedJSON(parsing: Array(#"{"id":9007199254740993}"#.utf8))),
      rules: ProviderDescription.kakao.identity, provider: .kakao, source: "test")
    #expect(identity.subject == "9007199254740993")
  }

  @Test("deep nesting, duplicate keys, bad escapes and trailing bytes are refused, not trapped on")
  func malformedJSON() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(DescribedJSON(parsing: Array(deep.utf8)) == nil)
    let allowed = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    #expect(DescribedJSON(parsing: Array(allowed.utf8)) != nil)
    for text in [
      #"{"a":1,"a":2}"#, #"{"a":"\x"}"#, #"{"a":"\ud800"}"#, #"{"a":1} x"#, #"{"a":01}"#,
      #"{"a":-}"#, #"{"a":1.}"#, "{\"a\":\"\u{01}\"}", #"{"a":tru}"#, "", "{", #"{"a""#,
    ] {
      #expect(DescribedJSON(parsing: Array(text.utf8)) == nil, "\(text)")
    }
    #expect(DescribedJSON(parsing: Array(#"{"a":"\ud83d\ude00\n"}"#.utf8))?["a"] == .string("😀\n"))
    #expect(DescribedJSON(parsing: [0x22, 0xFF, 0x22]) == nil)
  }

  @Test("a 10 MB answer is refused quickly without being read")
  func hugeAnswer() {
    let body = "{\"access_token\":\"" + String(repeating: "a", count: 10_000_000) + "\"}"
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      #expect(throws: AuthError.self) { _ = try Self.answer(body) }
    }
    #expect(elapsed < .seconds(5))
    let deep = String(repeating: "[", count: 1_000_000)
    #expect(DescribedJSON(parsing: Array(deep.utf8)) == nil)
  }

  @Test("wrong types and missing fields make an answer unreadable, never a success")
  func wrongTypes() {
    for body in [
      #"{"access_token":42}"#, #"{"access_token":""}"#, #"{"token_type":"bearer"}"#,
      #"{"access_token":"a","refresh_token":7}"#, #"{"access_token":"a","id_token":{}}"#,
      #"{"access_token":"a","expires_in":1e400}"#, #"{"access_token":"a","expires_in":-5}"#,
      #"{"access_token":"a","expires_in":"3600"}"#, "[1,2]", "null", #""text""#,
    ] {
      #expect(throws: AuthError.self, "\(body)") { _ = try Self.answer(body) }
    }
    let capped = try? Self.answer(#"{"access_token":"a","expires_in":99999999999999999999999}"#)
    #expect(
      capped?.expiresAt
        == Self.now.addingTimeInterval(OAuth2TokenResponse.maximumSeconds))
  }

  @Test("error fields with strange types fall back to an unreadable answer, which is transient")
  func strangeErrors() {
    for body in [#"{"error":5}"#, #"{"error":""}"#, #"{"error":{"code":1}}"#] {
      do {
        _ = try Self.answer(body, status: 400, description: .naver)
        Issue.record("accepted \(body)")
      } catch {
        #expect(error.code == .invalidResponse, "\(body)")
        #expect(
          DescribedAnswers.refreshFailure(error, dialect: ProviderDescription.naver.errors)
            == .transient(retryAfter: nil))
      }
    }
  }

  @Test("profile answers: envelopes, missing subjects, fractional or huge ids")
  func profiles() throws {
    let rules = ProviderDescription.naver.identity
    for body in [
      #"{"resultcode":"00","response":{}}"#, #"{"resultcode":"00","response":{"id":1.5}}"#,
      #"{"resultcode":"00","response":{"id":""}}"#, #"{"resultcode":"00","response":"x"}"#,
      #"{"response":{"id":"a"}}"#, #"{"resultcode":0,"response":{"id":"a"}}"#,
    ] {
      let value = try #require(DescribedJSON(parsing: Array(body.utf8)))
      #expect(throws: AuthError.self, "\(body)") {
        _ = try DescribedAnswers.identity(from: value, rules: rules, provider: .naver, source: "t")
      }
    }
    let list = try #require(
      DescribedJSON(parsing: Array(#"[{"email":"a@x","primary":"true","verified":true}]"#.utf8)))
    #expect(DescribedAnswers.primaryEmail(in: list, rules: .init(endpoint: "emails")) == nil)
  }
}
