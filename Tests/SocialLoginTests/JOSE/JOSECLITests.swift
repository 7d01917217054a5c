import CLITestProcess
import Foundation
import SocialLogin
import TestPacing
import Testing

/// Runs the built `sociallogin` binary (`.build/debug/sociallogin`, built by `swift build` and
/// `swift test`) as a subprocess. Skipped with a message when the binary is missing.
@Suite(
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct JOSECLITests {
  struct Run: Sendable {
    var status: Int32
    var stdout: Data
    var stderr: String
  }

  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("jose-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try write("rsa.jwk", JOSEFixtures.rsaJWK)
    try write("set.jwks", #"{"keys":[\#(JOSEFixtures.rsaJWK),\#(JOSEFixtures.ec1JWK)]}"#)
    try write(
      "enc.jwk",
      JOSEFixtures.rsaJWK.replacingOccurrences(of: #""use":"sig""#, with: #""use":"enc""#))
  }

  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: directory.appendingPathComponent(name))
  }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Runs the CLI to its end; the wait holds a thread of its own, not a cooperative one.
  func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
    try await blockingCall { try Self.runBlocking(arguments, environment: environment) }
  }

  static func runBlocking(_ arguments: [String], environment: [String: String]) throws -> Run {
    let process = Process()
    process.executableURL = CLIProcess.executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: stdout,
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  @Test func jwtVerifyPrintsHeaderAndClaims() async throws {
    let result = try await run([
      "jwt", "verify", "--jwks", path("set.jwks"), "--iss", "https://issuer.example",
      "--aud", "client-1", "--nonce", "n-0S6_WzA2Mj", "--now", "1700000000", JOSEFixtures.es256,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let output = try JSONValue(parsing: result.stdout.dropLast())
    #expect(output["claims"]?["sub"] == "user-1")
    #expect(output["header"]?["kid"] == "ec-1")
    #expect(result.stderr.isEmpty)
  }

  @Test func jwsVerifyPrintsTheRawPayload() async throws {
    let result = try await run([
      "jws", "verify", "--jwk", path("rsa.jwk"), JOSEFixtures.rs256Binary,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Array(result.stdout) == Array(0..<40))
  }

  @Test func failuresPrintOneLineWithTheReason() async throws {
    let cases: [([String], String)] = [
      (
        ["jws", "verify", "--jwk", path("enc.jwk"), JOSEFixtures.rs256Binary], "key_not_for_signing"
      ),
      (
        ["jwt", "verify", "--jwk", path("rsa.jwk"), "--now", "1800000000", JOSEFixtures.rs256],
        "expired"
      ),
      (
        ["jwt", "verify", "--jwk", path("rsa.jwk"), "--alg", "ES256", JOSEFixtures.rs256Far],
        "algorithm_not_allowed"
      ),
      (
        ["jwt", "verify", "--jwks", path("set.jwks"), "--aud", "x", JOSEFixtures.es256Far],
        "audience_mismatch"
      ),
      (["jws", "verify", "--jwks", path("set.jwks"), JOSEFixtures.es256Rotated], "key_not_found"),
      (
        ["jws", "verify", "--jwk", path("rsa.jwk"), String(JOSEFixtures.rs256.dropLast(2)) + "AA"],
        "signature_invalid"
      ),
      (["jws", "verify", "--jwk", path("missing.jwk"), JOSEFixtures.rs256], "configuration"),
    ]
    for (arguments, reason) in cases {
      let result = try await run(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.stderr.hasPrefix("error: \(reason): "), "\(result.stderr)")
      #expect(result.stderr.filter(\.isNewline).count == 1)
      #expect(result.stdout.isEmpty)
    }
  }

  @Test func hsSecretComesFromTheEnvironment() async throws {
    let token = TestTokens.hs256(TestTokens.claims(merging: ["exp": 4_102_444_800]))
    let secret = String(decoding: TestTokens.secret, as: UTF8.self)
    let ok = try await run(
      ["jwt", "verify", "--hs-secret-env", "JOSE_TEST_SECRET", token],
      environment: ["JOSE_TEST_SECRET": secret])
    #expect(ok.status == 0, "\(ok.stderr)")
    let wrong = try await run(
      ["jwt", "verify", "--hs-secret-env", "JOSE_TEST_SECRET", token],
      environment: ["JOSE_TEST_SECRET": "nope"])
    #expect(wrong.stderr.hasPrefix("error: signature_invalid: "))
  }

  @Test func badUsageExitsWithTwo() async throws {
    for arguments in [
      ["jwt", "verify", "--jwk", path("rsa.jwk")],
      ["jwt", "verify", "--jwk", path("rsa.jwk"), "--jwks", path("set.jwks"), "t"],
      ["jwt", "verify", "--jwk", path("rsa.jwk"), "--bogus", "t"],
      ["jwt", "verify", "--jwk", path("rsa.jwk"), "--alg", "none", "t"],
      ["jws", "verify", "--jwk", path("rsa.jwk"), "--iss", "x", "t"],
      ["jwt", "sign"],
      ["jwt", "verify", "--hs-secret-env", "JOSE_TEST_UNSET_VARIABLE", "t"],
    ] {
      let result = try await run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr.filter(\.isNewline).count == 1)
    }
  }
}
