import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: every built-in description's code flow over raw HTTP", .timeLimit(.minutes(3)))
struct EmulatorDescribedFlowTests {
  @Test(arguments: ProviderDescription.builtIn.map(\.id))
  func loginProfileRefreshAndRevocationFollowTheDescription(_ id: ProviderID) async throws {
    try await ProviderEmulator.run { emulator in
      let client = try DescribedTestClient(emulator, id)
      let description = client.description
      let subject = EmulatedUser.alice.subject(at: id)
      let code = try await client.code(
        scopes: description.idToken == nil
          ? nil
          : ["openid"]
            + description.authorization.defaultScopes.filter { $0 != "openid" })
      let tokens = try await client.exchange(code)
      #expect(tokens.status == 200, "\(tokens.text)")
      let access = try #require(tokens.string("access_token"), "\(tokens.text)")
      let refresh = tokens.string("refresh_token")
      #expect((refresh != nil) == (description.refresh.rotation != .unsupported))

      if let idToken = tokens.string("id_token") {
        let claims = try unverifiedClaims(idToken)
        #expect(claims["sub"]?.stringValue == subject)
        #expect(claims["nonce"]?.stringValue == "nonce-1")
        let keys = try await RawHTTP.send("GET", try client.url("keys"))
        #expect(keys.status == 200)
        #expect(keys.text.contains("\"RSA\""))
      } else {
        #expect(description.idToken == nil || description.idToken?.requiredOnLogin == false)
      }

      if let profileName = description.identity.endpoint {
        let profile = try await client.call(profileName, bearer: access)
        #expect(profile.status == 200, "\(profile.text)")
        let pointer = description.identity.subject.tokens.last ?? ""
        let exact =
          profile.text.contains("\"\(pointer)\":\(subject)")
          || profile.text.contains("\"\(pointer)\":\"\(subject)\"")
        #expect(exact, "\(profile.text)")
      }

      if let refresh {
        let refreshed = try await client.refresh(refresh)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(refreshed.string("access_token") != nil, "\(refreshed.text)")
        let again = try await client.refresh(refresh)
        switch description.refresh.rotation {
        case .always:
          #expect(refreshed.string("refresh_token") != nil)
          #expect(again.json?["error"] != nil, "the rotated token must be dead: \(again.text)")
        case .never, .nearExpiry:
          // Near expiry only: a fresh token is kept, so both answers leave it out.
          #expect(refreshed.string("refresh_token") == nil, "\(refreshed.text)")
          #expect(again.status == 200 && again.json?["error"] == nil, "\(again.text)")
        case .unsupported:
          Issue.record("a refresh token was issued for a provider without refresh")
        }
      }

      try await Self.revoke(client, access: access)
      #expect(
        emulator.requests(to: id, endpoint: "token").allSatisfy {
          $0.form["code"] != nil
            ? $0.form["code"] == "<redacted>" : true
        })
    }
  }

  /// Revokes the access token in the description's style and checks the token is dead.
  static func revoke(_ client: DescribedTestClient, access: String) async throws {
    let description = client.description
    switch description.revocation {
    case .none:
      return
    case .unlink:
      let unlinked = try await client.call("unlink", bearer: access, method: "POST")
      #expect(unlinked.status == 200, "\(unlinked.text)")
      #expect(
        unlinked.text == "{\"id\":\(EmulatedUser.alice.subject(at: description.id))}",
        "\(unlinked.text)")
    case .grantTypeDelete:
      let deleted = try await client.token([
        ("grant_type", "delete"), ("access_token", access), ("service_provider", "NAVER"),
      ])
      #expect(deleted.string("result") == "success", "\(deleted.text)")
    case .deleteGrant:
      let basic = Data((client.app.clientID + ":" + client.app.clientSecret).utf8)
        .base64EncodedString()
      let deleted = try await RawHTTP.send(
        "DELETE", try client.url("revoke"), body: Data("{\"access_token\":\"\(access)\"}".utf8),
        contentType: "application/json", headers: ["Authorization": "Basic " + basic])
      #expect(deleted.status == 204, "\(deleted.text)")
    case .rfc7009:
      let revoked = try await client.token([("token", access)])
      #expect(revoked.status == 200)
    case .accessToken:
      // LINE's style; LINE has its own emulated provider, not a built-in description.
      Issue.record("\(description.id) is served as a description but revokes as LINE does")
    }
    if let profile = description.identity.endpoint {
      let after = try await client.call(profile, bearer: access)
      #expect(after.status == 401, "\(after.text)")
    }
  }

  @Test func theStatusDocumentNamesEveryProviderAndItsApp() async throws {
    try await ProviderEmulator.run { emulator in
      let status = try await RawHTTP.send("GET", emulator.at("/"))
      let providers = status.json?["providers"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
      let apps = status.json?["apps"]?.arrayValue?.compactMap { $0["provider"]?.stringValue }
      for description in ProviderDescription.builtIn {
        #expect(providers?.contains(description.id.rawValue) == true, "\(description.id)")
        #expect(apps?.contains(description.id.rawValue) == true, "\(description.id)")
      }
      let microsoft = status.json?["providers"]?.arrayValue?.first {
        $0["name"]?.stringValue == "microsoft"
      }
      #expect(microsoft?["endpoints"]?.arrayValue?.contains("device_verification") == true)
    }
  }
}
