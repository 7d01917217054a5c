import Foundation
import SocialLogin
import Synchronization
import Testing

/// Logging and redaction tests, grouped so that `swift test --filter Logging` runs them all.
@Suite(.timeLimit(.minutes(5))) enum LoggingTests {}

extension LoggingTests {
  @Suite(.timeLimit(.minutes(5))) struct RedactionTests {
    @Test(
      "masks exactly what is secret",
      arguments: [
        (
          "grant_type=refresh_token&refresh_token=r1&client_id=c",
          "grant_type=refresh_token&refresh_token=<redacted>&client_id=c"
        ),
        (
          "oauth_token=abc123&oauth_token_secret=def&oauth_callback_confirmed=true",
          "oauth_token=<redacted>&oauth_token_secret=<redacted>&oauth_callback_confirmed=true"
        ),
        ("clientSecret=abc&accessToken=xyz", "clientSecret=<redacted>&accessToken=<redacted>"),
        (
          #"{"accessToken":"opaque123","client_secret":"s3","expires_in":3600}"#,
          #"{"accessToken":"<redacted>","client_secret":"<redacted>","expires_in":3600}"#
        ),
        (
          #"{"access_token" : "a\"b", "token_type":"Bearer"}"#,
          #"{"access_token" : "<redacted>", "token_type":"Bearer"}"#
        ),
        (#"{\"id_token\":\"abc\",\"n\":1}"#, #"{\"id_token\":\"<redacted>\",\"n\":1}"#),
        ("Authorization: Bearer abc.def", "Authorization: Bearer <redacted>"),
        ("authorization: token ghp_abc", "authorization: token <redacted>"),
        ("Bearer x", "Bearer <redacted>"),
        ("sent Basic aWQ6cw== to the server", "sent Basic <redacted> to the server"),
        (
          #"OAuth oauth_consumer_key="ck", oauth_token="tk", oauth_signature="sig%3D""#,
          "OAuth <redacted>"
        ),
        (
          "https://user:pa55@host/cb?code=abc&state=xyz#access_token=tok&x=1",
          "https://user:<redacted>@host/cb?code=<redacted>&state=<redacted>#access_token=<redacted>&x=1"
        ),
        ("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", "<redacted>"),
        ("jwe eyJhbGciOiJSU0EifQ.a.b.c.d end", "jwe <redacted> end"),
        ("Cookie: sid=abc; theme=dark", "Cookie: <redacted>"),
        (
          #"Credential(accessToken: "abc", expiresIn: 3)"#,
          #"Credential(accessToken: "<redacted>", expiresIn: 3)"#
        ),
        ("token_type=Bearer&expires_in=3600", "token_type=Bearer&expires_in=3600"),
        ("OAuth 2.0 provider answered 400", "OAuth 2.0 provider answered 400"),
        ("POST https://auth.test/token failed", "POST https://auth.test/token failed"),
        ("", ""),
      ])
    func masks(input: String, expected: String) {
      #expect(Redaction.scrub(input) == expected)
    }

    /// Long runs of token characters once made every pattern rescan the run from each
    /// position (seconds for 16 KiB, reachable from a forged callback's `error_description`).
    /// The bench's `redaction_adversarial` figure times it; here the secrets around such runs
    /// must still be masked and the runs left alone.
    @Test func longRunsOfTokenCharactersAreLeftAloneAndSecretsAroundThemMasked() {
      let runs = [
        String(repeating: "a.", count: 8192), String(repeating: "eyJ", count: 5461),
        String(repeating: "a-", count: 8192),
      ]
      for run in runs {
        let text =
          "client_secret=s3cr3t " + run + #" {"refresh_token":"r3fr3sh"} "#
          + "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln https://u:p4ss@host/"
        let scrubbed = Redaction.scrub(text)
        #expect(scrubbed.contains(run))
        for secret in ["s3cr3t", "r3fr3sh", "eyJhbGciOiJIUzI1NiJ9", "p4ss"] {
          #expect(!scrubbed.contains(secret), "\(secret) leaked")
        }
      }
    }

    /// Issue 33: Facebook's "check the app's Basic settings" came out as "Basic <redacted>" on
    /// the browser's error page; a word after `Basic` is prose, a credential is not.
    @Test func aWordAfterBasicIsProseAndACredentialIsMasked() {
      let prose = "Add the redirect URI in the app's Basic settings, then Basic Settings again."
      #expect(Redaction.scrub(prose) == prose)
      #expect(Redaction.scrub("sent Basic aWQ6cw==") == "sent Basic <redacted>")
      #expect(Redaction.scrub("basic dXNlcjpwYXNz, then") == "basic <redacted>, then")
      #expect(Redaction.scrub("Basic YWJjOmRlZg") == "Basic <redacted>")  // `abc:def`
      // "Ojpq" (`::j`) is letters only, capitalised like a word, and holds a colon.
      #expect(Redaction.scrub("Basic Ojpq") == "Basic <redacted>")
      let long = String(repeating: "a", count: 65)
      #expect(Redaction.scrub("Basic \(long)") == "Basic <redacted>")
    }

    @Test func scrubbingIsIdempotent() {
      let text = "refresh_token=r1 Authorization: Bearer eyJa.b.c"
      let once = Redaction.scrub(text)
      #expect(Redaction.scrub(once) == once)
      #expect(!once.contains("r1") && !once.contains("eyJ"))
    }

    @Test(
      "recognises secret names",
      arguments: [
        "access_token", "refresh_token", "id_token", "oauth_token", "oauth_token_secret",
        "clientSecret", "client_secret", "code", "code_verifier", "state", "nonce",
        "Authorization", "password", "fb_exchange_token", "appsecret_proof", "assertion",
        "device_code", "postBody", "api-key", "Cookie",
      ])
    func secretNames(name: String) {
      #expect(Redaction.isSecretName(name))
    }

    @Test(
      "leaves ordinary names alone",
      arguments: [
        "token_type", "grant_type", "expires_in", "client_id", "scope", "status", "provider",
        "error", "error_code", "oauth_signature_method", "session", "user_id",
      ])
    func ordinaryNames(name: String) {
      #expect(!Redaction.isSecretName(name))
    }

    @Test func metadataValuesOfSecretKeysAreMaskedAndOthersScrubbed() {
      let scrubbed = Redaction.scrub(metadata: [
        "clientSecret": "plain", "code": "abc", "status": "400",
        "body": "refresh_token=r1", "token_type": "Bearer",
      ])
      #expect(
        scrubbed == [
          "clientSecret": "<redacted>", "code": "<redacted>", "status": "400",
          "body": "refresh_token=<redacted>", "token_type": "Bearer",
        ])
    }
  }

  @Suite(.timeLimit(.minutes(5))) struct AuthLoggerTests {
    final class Recorder: Sendable {
      let records = Mutex<[AuthLogRecord]>([])
      let evaluations = Atomic<Int>(0)

      func text(_ value: String) -> String {
        evaluations.add(1, ordering: .relaxed)
        return value
      }

      func metadata(_ value: [String: String]) -> [String: String] {
        evaluations.add(1, ordering: .relaxed)
        return value
      }

      func logger(_ level: AuthLogLevel) -> AuthLogger {
        AuthLogger(minimumLevel: level) { record in self.records.withLock { $0.append(record) } }
      }
    }

    @Test func silentLoggerNeverEvaluatesItsArguments() {
      let recorder = Recorder()
      let logger = AuthLogger.silent
      for level in [AuthLogLevel.trace, .debug, .info, .warning, .error] {
        logger.log(level, recorder.text("x"), metadata: recorder.metadata(["k": "v"]))
      }
      #expect(recorder.evaluations.load(ordering: .relaxed) == 0)
    }

    @Test func recordsBelowTheMinimumLevelAreNotEvaluated() {
      let recorder = Recorder()
      let logger = recorder.logger(.warning)
      logger.log(.debug, recorder.text("debug"), metadata: recorder.metadata([:]))
      logger.log(.info, recorder.text("info"))
      #expect(recorder.evaluations.load(ordering: .relaxed) == 0)
      logger.log(.error, recorder.text("error"), metadata: recorder.metadata(["a": "b"]))
      #expect(recorder.evaluations.load(ordering: .relaxed) == 2)
      #expect(recorder.records.withLock { $0.map(\.message) } == ["error"])
    }

    @Test func emittedRecordsNeverContainSecrets() throws {
      let recorder = Recorder()
      let logger = recorder.logger(.trace)
      let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.sig"
      logger.log(
        .debug,
        "POST /token body=grant_type=refresh_token&refresh_token=RT-SECRET auth=Bearer \(jwt)",
        metadata: [
          "clientSecret": "CS-SECRET", "response": #"{"access_token":"AT-SECRET"}"#,
          "provider": "line",
        ])
      let record = try #require(recorder.records.withLock { $0.first })
      let emitted = record.message + record.metadata.map { "\($0.key)=\($0.value)" }.joined()
      for secret in ["RT-SECRET", "CS-SECRET", "AT-SECRET", jwt, "eyJ"] {
        #expect(!emitted.contains(secret), "\(secret) leaked: \(emitted)")
      }
      #expect(record.metadata["provider"] == "line")
      #expect(record.level == .debug)
      #expect(record.file.hasSuffix("LoggingTests.swift"))
      #expect(record.line > 0)
    }

    @Test func levelsAreOrderedAndNamed() {
      let levels: [AuthLogLevel] = [.trace, .debug, .info, .warning, .error]
      #expect(levels.sorted() == levels)
      #expect(Set(levels.map(\.description)).count == levels.count)
      #expect(AuthLogLevel.warning.description == "warning")
    }
  }
}
