import Foundation
import SocialLogin
import Testing

@Suite(.timeLimit(.minutes(5))) struct VersionTests {
  @Test func versionIsSet() { #expect(SDKVersion.current.hasPrefix("0.")) }

  /// The version is written once: the changelog's newest released section names it.
  @Test func theChangelogsNewestReleaseIsTheSDKVersion() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let changelog = try String(
      contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let released = changelog.split(separator: "\n").first {
      $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
    }
    let header = try #require(released.map(String.init))
    #expect(header.hasPrefix("## [\(SDKVersion.current)] - "), "\(header)")
  }
}
