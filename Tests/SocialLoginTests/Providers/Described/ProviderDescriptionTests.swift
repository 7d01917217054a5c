import Foundation
import Testing

@testable import SocialLogin

@Suite("Provider descriptions")
struct ProviderDescriptionTests {
  @Test("every built-in description survives a JSON round trip unchanged")
  func builtInDescriptionsRoundTrip() throws {
    for description in ProviderDescription.builtIn {
      let data = try JSONEncoder().encode(description)
      let decoded = try JSONDecoder().decode(ProviderDescription.self, from: data)
      #expect(decoded == description, "\(description.id)")
    }
  }

  @Test("built-in ids are unique and each has authorize and token endpoints")
  func builtInDescriptionsAreComplete() {
    let ids = ProviderDescription.builtIn.map(\.id)
    #expect(Set(ids).count == ids.count)
    for description in ProviderDescription.builtIn {
      #expect(description.endpoint("authorize") != nil, "\(description.id)")
      #expect(description.endpoint("token")?.method == .post, "\(description.id)")
      #expect(Set(description.endpointNames).count == description.endpoints.count)
      for endpoint in description.endpoints {
        #expect(endpoint.production.hasPrefix("https://"), "\(description.id) \(endpoint.name)")
      }
      if let keys = description.idToken?.keysEndpoint {
        #expect(description.endpoint(keys) != nil, "\(description.id)")
      }
    }
    #expect(ProviderDescription.builtIn(.kakao)?.displayName == "Kakao")
    #expect(ProviderDescription.builtIn("unknown") == nil)
  }

  @Test("JSON pointers unescape ~0 and ~1 and refuse what RFC 6901 does not allow")
  func jsonPointers() {
    #expect(JSONPointer(parsing: "/kakao_account/email")?.tokens == ["kakao_account", "email"])
    #expect(JSONPointer(parsing: "/a~1b/c~0d")?.tokens == ["a/b", "c~d"])
    #expect(JSONPointer(parsing: "")?.tokens == [])
    #expect(JSONPointer(parsing: "/")?.tokens == [""])
    #expect(JSONPointer(parsing: "response/id") == nil)
    #expect(JSONPointer(parsing: "/a~2") == nil)
    #expect(JSONPointer(parsing: "/a~") == nil)
  }

  @Test("a description file with a malformed pointer or an unknown style is refused")
  func hostileDescriptionFiles() throws {
    var text = String(decoding: try JSONEncoder().encode(ProviderDescription.naver), as: UTF8.self)
    #expect(text.contains("\"\\/response\\/id\"") || text.contains("\"/response/id\""))
    text = text.replacingOccurrences(of: "\\/response\\/id", with: "response~9")
      .replacingOccurrences(of: "/response/id", with: "response~9")
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ProviderDescription.self, from: Data(text.utf8))
    }
    let styled = String(
      decoding: try JSONEncoder().encode(ProviderDescription.naver), as: UTF8.self
    ).replacingOccurrences(of: "grant_type_delete", with: "telnet")
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ProviderDescription.self, from: Data(styled.utf8))
    }
  }

  @Test("configuration substitutes parameters and refuses ones that could change the URL")
  func configurationParameters() throws {
    let common = try DescribedProviderConfiguration(
      .microsoft, clientID: "app", parameters: ["tenant": "common"], environment: [:])
    #expect(
      common.url("token")?.absoluteString
        == "https://login.microsoftonline.com/common/oauth2/v2.0/token")
    #expect(common.url("nope") == nil)
    for hostile in ["", "evil.example/x", "a?b", "a#b", "..%2f", "a b"] {
      #expect(throws: AuthError.self) {
        try DescribedProviderConfiguration(
          .microsoft, clientID: "app", parameters: ["tenant": hostile], environment: [:])
      }
    }
    #expect(throws: AuthError.self) {
      try DescribedProviderConfiguration(.microsoft, clientID: "app", environment: [:])
    }
    #expect(throws: AuthError.self) {
      try DescribedProviderConfiguration(
        .kakao, clientID: "key", parameters: ["tenant": "x"], environment: [:])
    }
    #expect(throws: Never.self) {
      try DescribedProviderConfiguration(.naver, clientID: "id", environment: [:])
    }
    let github = try DescribedProviderConfiguration(
      .github, clientID: "Iv1.abc", clientSecret: Secret("s"), environment: [:])
    #expect(
      github.url("revoke")?.absoluteString
        == "https://api.github.com/applications/Iv1.abc/grant")
    let hostileClient = try DescribedProviderConfiguration(
      .github, clientID: "x/../../orgs", clientSecret: Secret("s"), environment: [:])
    #expect(hostileClient.url("revoke") == nil)
    #expect(hostileClient.url("token") != nil)
  }

  @Test("the emulator maps every default endpoint, and an override is used as given")
  func emulatorMapping() throws {
    var kakao = try DescribedProviderConfiguration(
      .kakao, clientID: "key", emulatorHost: EmulatorHost(parsing: "127.0.0.1:9099"),
      environment: [:])
    #expect(kakao.url("token")?.host == "127.0.0.1")
    try kakao.setEndpoint("keys", to: URL(string: "https://keys.example/jwks")!)
    #expect(kakao.url("keys")?.absoluteString == "https://keys.example/jwks")
    #expect(throws: AuthError.self) {
      try kakao.setEndpoint("profile", to: URL(string: "https://x.example")!)
    }
  }
}
