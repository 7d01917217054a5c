import Foundation
import SocialLogin
import Testing

@Suite(.timeLimit(.minutes(5))) struct EmulatorHostTests {
  @Test func mapsProductionURLsUnderTheirHostName() throws {
    let emulator = try EmulatorHost(parsing: "127.0.0.1:9199")
    let url = try #require(
      URL(string: "https://api.x.com/2/users/me?user.fields=profile_image_url"))
    #expect(
      emulator.map(url).absoluteString
        == "http://127.0.0.1:9199/api.x.com/2/users/me?user.fields=profile_image_url")
    let root = try #require(URL(string: "https://graph.facebook.com"))
    #expect(emulator.map(root).absoluteString == "http://127.0.0.1:9199/graph.facebook.com/")
  }

  @Test func parsesIPv6AndRejectsGarbage() throws {
    let v6 = try EmulatorHost(parsing: "[::1]:80")
    #expect(v6.host == "::1" && v6.port == 80)
    #expect(v6.description == "[::1]:80")
    for bad in ["", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", ":9199", "a/b:1", "x:y"] {
      #expect(throws: AuthError.self, "\(bad)") { try EmulatorHost(parsing: bad) }
    }
  }

  @Test func readsTheEnvironmentAndRefusesATypo() throws {
    #expect(try EmulatorHost.fromEnvironment([:]) == nil)
    #expect(try EmulatorHost.fromEnvironment(["SOCIALLOGIN_EMULATOR_HOST": ""]) == nil)
    let host = try EmulatorHost.fromEnvironment(["SOCIALLOGIN_EMULATOR_HOST": "localhost:9"])
    #expect(host == EmulatorHost(host: "localhost", port: 9))
    #expect(throws: AuthError.self) {
      try EmulatorHost.fromEnvironment(["SOCIALLOGIN_EMULATOR_HOST": "localhost"])
    }
  }
}
