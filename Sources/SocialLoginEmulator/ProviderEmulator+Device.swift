import Foundation
import SocialLogin

extension ProviderEmulator {
  /// Approves the pending device login with `userCode`, as `user` (the current user when
  /// `nil`): what the person with the phone does, for Swift tests and the demo. Over HTTP:
  /// `POST /_emulator/device/approve {"user_code": "..."}`.
  ///
  /// ```swift
  /// let session = try await client.deviceLogin("oidc") { prompt in
  ///   emulator.approveDeviceLogin(userCode: prompt.userCode)
  /// }
  /// ```
  ///
  /// - Returns: Whether a pending, unexpired device login had that code (case, spaces and
  ///   dashes do not matter) and the user exists.
  @discardableResult
  public func approveDeviceLogin(userCode: String, as user: String? = nil) -> Bool {
    let environment = dispatcher.environment
    let id = user ?? environment.currentUserID
    guard environment.user(id) != nil else { return false }
    return environment.devices.decide(
      userCode: userCode, .approved(userID: id), now: environment.now) != nil
  }

  /// Denies the pending device login with `userCode`. Over HTTP:
  /// `POST /_emulator/device/deny {"user_code": "..."}`.
  ///
  /// - Returns: Whether a pending, unexpired device login had that code.
  @discardableResult
  public func denyDeviceLogin(userCode: String) -> Bool {
    let environment = dispatcher.environment
    return environment.devices.decide(userCode: userCode, .denied, now: environment.now) != nil
  }
}
