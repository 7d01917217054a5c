import Foundation
import GlewlwydTestPeer

extension GlewlwydPeer {
  /// In CI a missing server is a failure; elsewhere the suite skips when glewlwyd is absent.
  static var shouldRun: Bool {
    isInstalled || isCI()
  }

  /// One server for the whole test process.
  static let shared = Task<GlewlwydPeer, any Error> {
    let script = defaultScript
    return try await start(script: script)
  }
}
