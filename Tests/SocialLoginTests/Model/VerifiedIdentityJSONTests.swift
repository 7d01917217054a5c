import Foundation
import SocialLogin
import Testing

/// Issue 20, item 8: one JSON document for a verified token, in the library and the CLI.
@Suite struct VerifiedIdentityJSONTests {
  let verified = VerifiedIdentity(
    identity: Identity(
      provider: .line, subject: "U1234", name: "Alice", email: "alice@example.com",
      emailVerified: true, pictureURL: URL(string: "https://pictures.example.test/alice.png"),
      rawClaims: ["sub": "U1234", "amr": ["pwd"]]),
    expiresAt: Date(timeIntervalSince1970: 1_800_000_000), scopes: ["profile", "openid"],
    audience: .proven(audience: "1656000000"))

  func object(_ value: VerifiedIdentity) throws -> [String: JSONValue] {
    let data = try JSONEncoder().encode(value)
    guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: data) else {
      throw AuthError(.invalidResponse, "not an object")
    }
    return object
  }

  @Test func theDocumentHasTheDocumentedFields() throws {
    let object = try object(verified)
    #expect(object["provider"] == "line")
    #expect(object["subject"] == "U1234")
    #expect(object["name"] == "Alice")
    #expect(object["email_verified"] == true)
    #expect(object["picture"] == "https://pictures.example.test/alice.png")
    #expect(object["claims"]?["amr"] == ["pwd"])
    #expect(object["expires_at"] == "2027-01-15T08:00:00Z")
    #expect(object["scopes"] == ["profile", "openid"])
    #expect(object["audience"] == ["proven": true, "audience": "1656000000"])
    #expect(object["identity"] == nil && object["expiresAt"] == nil, "no second shape")
  }

  @Test func anUnprovableAudienceSaysWhyAndUnknownFieldsAreLeftOut() throws {
    let bare = VerifiedIdentity(
      identity: Identity(provider: .twitter, subject: "42"),
      audience: .unprovable(reason: "X cannot say"))
    let object = try object(bare)
    #expect(object["audience"] == ["proven": false, "reason": "X cannot say"])
    #expect(object["expires_at"] == nil)
    #expect(object["name"] == nil)
  }

  @Test func itRoundTripsWhateverTheEncodersDateStrategy() throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let decoded = try JSONDecoder().decode(
      VerifiedIdentity.self, from: try encoder.encode(verified))
    #expect(decoded == verified)
  }

  @Test func aMalformedDocumentIsADecodingError() {
    let bad = Data(#"{"provider":"line","subject":"U","audience":{"proven":true}}"#.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(VerifiedIdentity.self, from: bad)
    }
    let date = Data(
      #"{"provider":"line","subject":"U","expires_at":"soon","audience":{"proven":false,"reason":"r"}}"#
        .utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(VerifiedIdentity.self, from: date)
    }
  }
}
