import Foundation
import SocialLoginCrypto
import Testing

@testable import SocialLogin

/// Servers do not always send P-256 coordinates as exactly 32 bytes: Glewlwyd trims leading
/// zero bytes (seen in about 1 of 15 fresh keys), others add a sign byte.
@Suite(.timeLimit(.minutes(5))) struct JWKCoordinateTests {
  @Test func coordinatesAreNormalisedToThirtyTwoBytes() {
    let full = [UInt8](repeating: 7, count: 32)
    #expect(JWK.coordinate(full) == full)
    #expect(JWK.coordinate(Array(full.dropFirst())) == [0] + full.dropFirst())
    #expect(JWK.coordinate([0] + full) == full)
    #expect(JWK.coordinate([0, 0] + Array(full.dropFirst(3))) == [0, 0, 0] + full.dropFirst(3))
    #expect(JWK.coordinate([1] + full) == nil, "33 significant bytes do not fit")
    #expect(JWK.coordinate([]) == nil)
  }

  @Test func aKeyWithAPaddedCoordinateStillVerifies() throws {
    let original = try JWK(parsing: Array(JOSEFixtures.ec1JWK.utf8))
    // The same x with a leading zero byte (33 bytes) must name the same key.
    let x = try Base64URL.decode("xdd7wOYZDMZWn8ZVrN6GMtYHRePYY3VT8eNUe1w0Gk4")
    let padded = JOSEFixtures.ec1JWK.replacingOccurrences(
      of: "xdd7wOYZDMZWn8ZVrN6GMtYHRePYY3VT8eNUe1w0Gk4", with: Base64URL.encode([0] + x))
    let key = try JWK(parsing: Array(padded.utf8))
    let verifier = JWSVerifier(allowedAlgorithms: [.es256])
    let viaOriginal = try verifier.verify(JOSEFixtures.es256, key: original)
    let viaPadded = try verifier.verify(JOSEFixtures.es256, key: key)
    #expect(viaOriginal.payload == viaPadded.payload)
  }
}
