import Foundation

/// A provider that signs users in with the device authorization grant (RFC 8628) or its own
/// equivalent (Facebook Login for Devices): the program shows a short code and an address,
/// the user approves on another device, the program polls.
///
/// ``LoginClient/deviceLogin(_:scopes:show:)`` drives it: it asks for an authorization,
/// hands what to show to the caller, then calls ``pollDeviceLogin(_:)`` on its own schedule
/// (interval, `slow_down`, expiry, cancellation), so a provider only says what one answer
/// means. Providers that adopt it also list ``ProviderCapabilities/deviceGrant``.
///
/// ```swift
/// extension MyProvider: DeviceLoginProvider {
///   func startDeviceLogin(scopes: [String]?) async throws -> DeviceAuthorization {
///     try await oauth.requestDeviceAuthorization(scopes: scopes)
///   }
///   func pollDeviceLogin(_ authorization: DeviceAuthorization)
///     async throws -> DevicePollResult<Credential>
///   {
///     switch try await oauth.pollDeviceTokenOnce(authorization) {
///     case .pending: .pending
///     case .slowDown(let interval): .slowDown(interval: interval)
///     case .approved(let tokens): .approved(tokens.credential)
///     }
///   }
/// }
/// ```
public protocol DeviceLoginProvider: LoginProvider {
  /// Asks the provider for a device code and the user code to show.
  ///
  /// - Parameter scopes: The scopes to request; the provider's configured scopes when `nil`.
  /// - Throws: ``AuthError/Code/unsupported`` when this provider (or this issuer) offers no
  ///   device login; otherwise the provider's errors.
  func startDeviceLogin(scopes: [String]?) async throws -> DeviceAuthorization

  /// Polls once, without waiting: is the login still pending, should polling slow down, or
  /// did the user approve (then the verified credential)?
  ///
  /// - Throws: ``AuthError/Code/accessDenied`` when the user declined,
  ///   ``AuthError/Code/deviceCodeExpired`` when the code expired,
  ///   ``AuthError/Code/configuration`` when the provider does not allow the grant for this
  ///   app; transient errors as they are (polling goes on).
  func pollDeviceLogin(_ authorization: DeviceAuthorization) async throws
    -> DevicePollResult<Credential>
}

/// What a device login asks the user to do: open ``verificationURI`` on another device and
/// enter ``userCode``, before ``expiresAt``.
///
/// It carries no device code (the secret the program polls with), so it can be shown, logged
/// or sent to another screen as it is.
public struct DeviceLoginPrompt: Hashable, Sendable, CustomStringConvertible {
  /// The provider the login is for.
  public let provider: ProviderID
  /// The code the user types at ``verificationURI``. Always show it, even with
  /// ``verificationURIComplete``: the user compares it on the approval page (RFC 8628 §5.4).
  public let userCode: String
  /// Where the user approves the login.
  public let verificationURI: URL
  /// The address that already carries the user code (for a link or a QR code), when the
  /// provider sent one.
  public let verificationURIComplete: URL?
  /// When the code stops working, on the client's clock.
  public let expiresAt: Date

  /// Creates a prompt from a device authorization.
  public init(provider: ProviderID, authorization: DeviceAuthorization) {
    self.provider = provider
    userCode = authorization.userCode
    verificationURI = authorization.verificationURI
    verificationURIComplete = authorization.verificationURIComplete
    expiresAt = authorization.expiresAt
  }

  /// The instruction in one line.
  public var description: String {
    "Open \(verificationURI.absoluteString) and enter the code \(userCode) "
      + "(\(provider), expires \(expiresAt))"
  }
}
