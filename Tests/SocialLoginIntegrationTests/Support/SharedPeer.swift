import Foundation
import SocialLoginTesting

extension GlewlwydPeer {
  /// In CI a missing server is a failure; elsewhere the suite skips when glewlwyd is absent.
  static var shouldRun: Bool {
    isInstalled || ProcessInfo.processInfo.environment["CI"] == "true"
  }

  /// One server for the whole test process.
  static let shared = Task<GlewlwydPeer, any Error> {
    guard
      let script = Bundle.module.url(
        forResource: "glewlwyd-peer", withExtension: "sh", subdirectory: "Fixtures")
    else { throw PeerError("glewlwyd-peer.sh is missing from the test bundle") }
    return try await start(script: script)
  }
}
