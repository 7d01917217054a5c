import Foundation
import SocialLogin
import Testing

@Suite(.timeLimit(.minutes(5))) struct SecretRedactionTests {
  let credential = Credential(
    accessToken: "AT-SECRET-123", refreshToken: "RT-SECRET-456",
    idToken: "eyJhbGciOiJIUzI1NiJ9.e30.sig",
    tokenSecret: "TS-SECRET-789", scopes: ["openid"])

  func assertNoSecrets(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in ["AT-SECRET-123", "RT-SECRET-456", "eyJhbGciOiJIUzI1NiJ9", "TS-SECRET-789"] {
      #expect(
        !text.contains(secret), "leaked \(secret) in: \(text)", sourceLocation: sourceLocation)
    }
  }

  @Test func descriptionsAndDumpNeverShowTokens() {
    assertNoSecrets(credential.description)
    assertNoSecrets(String(describing: credential))
    assertNoSecrets(String(reflecting: credential))
    var dumped = ""
    dump(credential, to: &dumped)
    assertNoSecrets(dumped)
    #expect(dumped.contains("openid"), "dump still shows the non-secret fields")
    #expect(credential.accessToken.revealed == "AT-SECRET-123")
  }

  @Test func pendingLoginAndStoredSessionDoNotLeak() {
    let pending = PendingLogin(
      provider: .line, state: "AT-SECRET-123", redirectURI: "http://127.0.0.1/cb",
      codeVerifier: "RT-SECRET-456", nonce: "TS-SECRET-789", createdAt: Date(), expiresAt: Date())
    assertNoSecrets(String(describing: pending))
    var dumped = ""
    dump(
      StoredSession(key: SessionKey(provider: .line, subject: "s"), credential: credential),
      to: &dumped)
    assertNoSecrets(dumped)
  }

  @Test func errorsAndLogsAreScrubbed() {
    let recorded = RecordedLogs()
    let logger = AuthLogger(minimumLevel: .trace) { recorded.append($0) }
    logger.log(
      .info, "POST body refresh_token=RT-SECRET-456&grant_type=refresh_token",
      metadata: [
        "authorization": "Bearer AT-SECRET-123", "note": "token eyJhbGciOiJIUzI1NiJ9.e30.sig",
      ])
    logger.log(.debug, #"{"access_token":"AT-SECRET-123","token_type":"bearer"}"#)
    for record in recorded.all {
      assertNoSecrets(record.message)
      assertNoSecrets(record.metadata.values.joined(separator: " "))
    }
    #expect(recorded.all.count == 2)
    #expect(recorded.all.first?.message.contains("grant_type=refresh_token") == true)
  }
}

final class RecordedLogs: Sendable {
  private let records = Locked<[AuthLogRecord]>([])
  func append(_ record: AuthLogRecord) { records.withLock { $0.append(record) } }
  var all: [AuthLogRecord] { records.withLock { $0 } }
}
