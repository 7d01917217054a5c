import Foundation
import Testing

@testable import SocialLogin

/// `AccountID`: what a service may call an account, checked when made and when decoded.
@Suite struct AccountIDTests {
  @Test(arguments: ["u", "user-8f14e45f", "ユーザー42", "a b", String(repeating: "x", count: 256)])
  func ordinaryIdsAreAccepted(_ raw: String) throws {
    let id = try AccountID(raw)
    #expect(id.rawValue == raw)
    #expect(id.description == raw)
  }

  @Test(arguments: [
    "", String(repeating: "x", count: 257), String(repeating: "é", count: 129), "a\nb", "a\rb",
    "\u{0}", "tab\there", "\u{7F}", "c1\u{85}", "\u{1B}[31mred", "line\u{2028}sep",
    "para\u{2029}", "bidi\u{202E}gnp.exe", "iso\u{2066}late", "mark\u{200F}",
  ])
  func hostileIdsAreRefusedWithoutRepeatingThem(_ raw: String) {
    do {
      _ = try AccountID(raw)
      Issue.record("accepted \(raw.debugDescription)")
    } catch {
      #expect(error.code == .configuration)
      #expect(raw.isEmpty || !error.message.contains(raw), "the message never repeats the id")
    }
  }

  @Test func decodingValidatesLikeTheInitializer() throws {
    let decoder = JSONDecoder()
    #expect(try decoder.decode(AccountID.self, from: Data(#""ada""#.utf8)).rawValue == "ada")
    for hostile in [#""""#, #""a\u0000b""#, "42", "null", #"{"rawValue":"ada"}"#] {
      #expect(throws: (any Error).self, "\(hostile)") {
        try decoder.decode(AccountID.self, from: Data(hostile.utf8))
      }
    }
    let encoded = try JSONEncoder().encode(try AccountID("ada"))
    #expect(String(decoding: encoded, as: UTF8.self) == #""ada""#)
  }

  @Test func idsCompareByTheirBytes() throws {
    let composed = try AccountID("\u{E9}")
    let decomposed = try AccountID("e\u{301}")
    #expect(composed != decomposed)
    #expect(Set([composed, decomposed]).count == 2)
    #expect(try AccountID("a") < AccountID("b"))
  }
}

/// Expects `body` to throw an `AuthError` with `code`.
func expectAuthError<T>(
  _ code: AuthError.Code, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> T
) async {
  let error = await #expect(throws: AuthError.self, sourceLocation: sourceLocation) {
    _ = try await body()
  }
  #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
}
