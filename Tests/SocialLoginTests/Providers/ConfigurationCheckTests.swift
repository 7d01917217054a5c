import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Issue 20 item 2: the app's own misconfiguration is a ``AuthError/Code/configuration``
/// error naming the setting, found when the provider is configured or by
/// ``LoginClient/validateConfiguration()``, never the user's bad token.
@Suite("Configuration errors name the setting")
struct ConfigurationCheckTests {
  func configurationError(_ body: () throws -> Void) -> AuthError? {
    do {
      try body()
    } catch let error as AuthError {
      return error.code == .configuration ? error : nil
    } catch {}
    return nil
  }

  @Test func emptySecretsAreRefusedWhenTheProviderIsConfigured() {
    let line = configurationError {
      _ = try LINEConfiguration(channelID: "1656000000", channelSecret: "", environment: [:])
    }
    #expect(line?.provider == .line)
    #expect(line?.message.contains("LINEConfiguration.channelSecret") == true)
    let facebook = configurationError {
      _ = try FacebookConfiguration(appID: "1234567890", appSecret: "", environment: [:])
    }
    #expect(facebook?.message.contains("FacebookConfiguration.appSecret") == true)
    #expect(
      configurationError {
        _ = try XProvider.Configuration(clientID: "", environment: [:])
      }?.provider == .twitter)
    // nil still means "no secret" (a backend that only verifies, or a public client).
    #expect(
      configurationError {
        _ = try LINEConfiguration(channelID: "1656000000", environment: [:])
      } == nil)
  }

  @Test func anEmptyOIDCClientIDIsAConfigurationErrorNotABadToken() async throws {
    let provider = OIDCProvider(
      id: "corp",
      configuration: .init(issuer: try #require(URL(string: "https://id.example")), clientID: ""),
      transport: StubTransport())
    for attempt in 0..<2 {
      do {
        if attempt == 0 {
          _ = try await provider.verify(.idToken("a.b.c", nonce: nil))
        } else {
          _ = try await provider.validateConfiguration()
        }
        Issue.record("an empty client id was accepted")
      } catch let error as AuthError {
        #expect(error.code == .configuration)
        #expect(error.provider == "corp")
        #expect(error.message.contains("OIDCProvider.Configuration.clientID"))
      }
    }
  }

  @Test func debugTokenRefusingTheAppTokenBlamesTheAppSecret() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on(
      "GET", FacebookFixture.debugPath,
      reply: .json(
        #"{"error":{"message":"Invalid OAuth access token signature.","type":"OAuthException","#
          + #""code":190,"fbtrace_id":"A1"}}"#, status: 400))
    do {
      _ = try await fixture.provider.verify(.accessToken(Secret(FacebookFixture.userToken)))
      Issue.record("verify succeeded")
    } catch let error as AuthError {
      #expect(error.code == .configuration)
      #expect(error.provider == .facebook)
      #expect(error.message.contains("FacebookConfiguration.appSecret"))
      #expect(!error.message.contains(FacebookFixture.appSecret.revealed))
      #expect(error.signOutReason == nil)
      guard case .transient = fixture.provider.classifyFailure(error) else {
        Issue.record("the user would be signed out for the app's secret")
        return
      }
    }
  }

  @Test func aWrongAppSecretOnCodeExchangeOrProofIsAConfigurationError() async throws {
    let exchange = try await FacebookGraphErrorProbe.error(
      #"{"error":{"message":"Error validating client secret.","type":"OAuthException","code":1}}"#)
    let proof = try await FacebookGraphErrorProbe.error(
      #"{"error":{"message":"Invalid appsecret_proof provided in the API argument","#
        + #""type":"GraphMethodException","code":100}}"#)
    let appID = try await FacebookGraphErrorProbe.error(
      #"{"error":{"message":"Error validating application. Invalid application ID.","#
        + #""type":"OAuthException","code":101}}"#)
    for error in [exchange, proof] {
      #expect(error.code == .configuration)
      #expect(error.message.contains("FacebookConfiguration.appSecret"))
      #expect(!error.isTransient)
    }
    #expect(appID.message.contains("FacebookConfiguration.appID"))
  }

  @Test func firebaseRejectsTheAPIKeyOrNamesAnotherProject() async throws {
    let fixture = try FirebaseFixture()
    let message = "API key not valid. Please pass a valid API key."
    fixture.stub.on(
      "GET", "/v1/projects",
      reply: .json(
        #"{"error":{"code":400,"message":"\#(message)","errors":[{"message":"\#(message)","#
          + #""domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT"}}"#,
        status: 400))
    fixture.stub.on(
      "GET", "/v1/projects", reply: .json(#"{"projectId":"another-project"}"#))
    fixture.stub.on("GET", "/v1/projects", reply: .json(#"{"projectId":"demo-project"}"#))
    for expected in ["Configuration.apiKey", "Configuration.projectID"] {
      do {
        _ = try await fixture.provider.validateConfiguration()
        Issue.record("the check passed")
      } catch let error as AuthError {
        #expect(error.code == .configuration)
        #expect(error.provider == .firebase)
        #expect(error.message.contains(expected))
        #expect(!error.message.contains("test-api-key"))
      }
    }
    guard case .ok = try await fixture.provider.validateConfiguration() else {
      Issue.record("the right key and project were not accepted")
      return
    }
    #expect(fixture.stub.requests.first?.url.query?.contains("key=test-api-key") == true)
  }

  @Test func lineBlamesTheChannelSecretOnlyForInvalidClient() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on(
      "POST", "/oauth2/v3/token",
      reply: .json(#"{"error":"invalid_client","error_description":"invalid"}"#, status: 400))
    fixture.stub.on(
      "POST", "/oauth2/v3/token",
      reply: .json(#"{"error":"unsupported_grant_type","error_description":"no"}"#, status: 400))
    do {
      _ = try await fixture.provider.validateConfiguration()
      Issue.record("invalid_client was accepted")
    } catch let error as AuthError {
      #expect(error.code == .configuration)
      #expect(error.message.contains("LINEConfiguration.channelSecret"))
      #expect(!error.message.contains(LINEFixture.channelSecret.revealed))
    }
    guard case .notCheckable = try await fixture.provider.validateConfiguration() else {
      Issue.record("a refusal that is not about the secret blamed it")
      return
    }
    let form = String(decoding: fixture.stub.requests.first?.body ?? Data(), as: UTF8.self)
    #expect(form.contains("grant_type=client_credentials"))
    #expect(form.contains("client_id=\(LINEFixture.channelID)"))
  }

  @Test func theClientReportsProvidersThatCannotBeChecked() async throws {
    let scripted = ScriptedProvider(id: "custom", clock: ManualClock())
    let client = try LoginClient(providers: [scripted], store: InMemorySessionStore())
    let report = try await client.validateConfiguration()
    guard case .notCheckable = report.checks["custom"] else {
      Issue.record("a provider without a check was not reported as not checkable")
      return
    }
    #expect(report.rejected.isEmpty)
  }
}

/// Drives a Graph error body through a code exchange, the way a login meets it.
enum FacebookGraphErrorProbe {
  static func error(_ body: String) async throws -> AuthError {
    let fixture = try FacebookFixture()
    fixture.stub.on("GET", FacebookFixture.tokenPath, reply: .json(body, status: 400))
    do {
      _ = try await fixture.provider.validateConfiguration()
    } catch let error as AuthError {
      return error
    }
    throw CancellationError()
  }
}
