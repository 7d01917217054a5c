import Foundation
import SocialLogin
import Testing

@Suite(.timeLimit(.minutes(5))) struct StrictJSONTests {
  func parse(_ text: String) throws -> JSONValue {
    try JSONValue(parsing: Array(text.utf8))
  }

  @Test func parsesEveryKindOfValue() throws {
    let value = try parse(
      #" {"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00","n":-12.5e1,"i":1700000000,"z":0,"t":true,"f":false,"x":null,"a":[1,[2,{}],[]],"o":{}} "#
    )
    #expect(value["s"] == "a\"b\\c/d\né😀")
    #expect(value["n"] == -125)
    #expect(value["i"] == 1_700_000_000)
    #expect(value["z"] == 0)
    #expect(value["t"] == true)
    #expect(value["f"] == false)
    #expect(value["x"] == JSONValue.null)
    #expect(value["a"] == [1, [2, [:]], []])
    #expect(value["o"] == [:])
    #expect(try parse("\"ünïcödé\"") == "ünïcödé")
    #expect(try parse("9007199254740993") == .number(9_007_199_254_740_992))
    #expect(try parse("1E+2") == 100)
  }

  @Test(arguments: [
    "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{,}", "[,1]", "{\"a\" 1}", "{a:1}", "{'a':1}",
    "01", "-", "+1", ".5", "1.", "1e", "1e+", "NaN", "Infinity", "1e400", "-1e400", "0x10",
    "tru", "nul", "True", "\"a", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"",
    "\"\\ud800\\u0041\"", "\"tab\there\"", "\"nl\nhere\"", "1 2", "{} {}", "[1] x",
    "{\"a\":1,\"a\":1}", "{\"a\":{\"b\":1,\"b\":2}}", "\u{FEFF}{}",
  ])
  func rejectsInvalidDocuments(text: String) {
    #expect(throws: JSONParseError.self) { _ = try parse(text) }
  }

  @Test func rejectsInvalidUTF8() {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xFF],
    ] {
      #expect(throws: JSONParseError.self) { _ = try JSONValue(parsing: bytes) }
    }
  }

  @Test func duplicateKeyErrorPointsAtTheKey() {
    do {
      _ = try parse(#"{"alg":"RS256","alg":"none"}"#)
      Issue.record("accepted a duplicate key")
    } catch let error as JSONParseError {
      #expect(error.offset == 15)
      #expect(error.problem == "duplicate object key")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func depthIsLimited() throws {
    let deep = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    #expect(throws: Never.self) { _ = try parse(deep) }
    let deeper = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
    #expect(throws: JSONParseError.self) { _ = try parse(deeper) }
    let hostile = String(repeating: "{\"a\":", count: 100_000)
    #expect(throws: JSONParseError.self) { _ = try parse(hostile) }
  }

  @Test func jsonTextRoundTrips() throws {
    let value: JSONValue = [
      "b": [1, 2.5, "x\u{01}\"\\/"], "a": ["nested": true, "nil": nil], "big": 1e300, "neg": -0.001,
    ]
    #expect(
      value.jsonText.hasPrefix(#"{"a":{"nested":true,"nil":null},"b":[1,2.5,"x\u0001\"\\/"]"#))
    #expect(try parse(value.jsonText) == value)
  }

  /// Mutates valid documents at random; the parser must never crash, anything it accepts must
  /// round-trip through `jsonText`, and Foundation must accept it too (we are stricter, never
  /// laxer).
  @Test func fuzzedDocumentsNeverCrashAndAcceptedOnesRoundTrip() throws {
    let seeds = [
      #"{"alg":"RS256","kid":"k1","typ":"JWT","crit":["b64"]}"#,
      #"{"iss":"https://a.example","aud":["x","y"],"exp":1700000000,"n":-1.5e-3,"s":"\u00e9\n"}"#,
      #"[true,false,null,{"a":[{}]},"\ud83d\ude00",0,-0.0]"#,
    ]
    var generator = SplitMix64(seed: 0x5EED)
    let alphabet =
      Array(#"{}[]":,.-+eE0123456789tfnulrsa\ "#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF]
    var accepted = 0
    for iteration in 0..<4000 {
      var bytes = Array(seeds[iteration % seeds.count].utf8)
      for _ in 0..<(1 + Int(generator.next() % 4)) {
        let position = Int(generator.next() % UInt64(bytes.count + 1))
        switch generator.next() % 3 {
        case 0 where position < bytes.count: bytes.remove(at: position)
        case 1: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
        default:
          if position < bytes.count {
            bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
          }
        }
      }
      guard let value = try? JSONValue(parsing: bytes) else { continue }
      accepted += 1
      #expect(try JSONValue(parsing: Array(value.jsonText.utf8)) == value)
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil,
        "Foundation rejects what we accepted: \(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(accepted > 100)
  }
}

/// A small deterministic generator for the fuzz test.
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
