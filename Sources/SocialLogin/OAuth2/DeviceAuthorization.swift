import Foundation

/// An RFC 8628 device authorization: what to show the user, and what to poll with.
///
/// ```swift
/// let authorization = try await client.requestDeviceAuthorization()
/// print("Open \(authorization.verificationURI) and enter \(authorization.userCode)")
/// let tokens = try await client.pollDeviceToken(authorization)
/// ```
public struct DeviceAuthorization: Hashable, Sendable, CustomStringConvertible {
  /// The device code the client polls with. Secret.
  public var deviceCode: Secret
  /// The code the user types at ``verificationURI``.
  public var userCode: String
  /// Where the user goes to approve the login.
  public var verificationURI: URL
  /// A URL that already carries the user code (for QR codes), when the server sent one.
  public var verificationURIComplete: URL?
  /// How long the device code lives, in seconds from ``issuedAt``.
  public var expiresIn: TimeInterval
  /// The minimum seconds between polls; 5 when the server did not say.
  public var interval: TimeInterval
  /// When the authorization was received, on the local clock.
  public var issuedAt: Date
  /// The scopes that were requested.
  public var scopes: [String]

  /// Creates a device authorization.
  public init(
    deviceCode: Secret,
    userCode: String,
    verificationURI: URL,
    verificationURIComplete: URL? = nil,
    expiresIn: TimeInterval,
    interval: TimeInterval = 5,
    issuedAt: Date,
    scopes: [String] = []
  ) {
    self.deviceCode = deviceCode
    self.userCode = userCode
    self.verificationURI = verificationURI
    self.verificationURIComplete = verificationURIComplete
    self.expiresIn = expiresIn
    self.interval = interval
    self.issuedAt = issuedAt
    self.scopes = scopes
  }

  /// When the device code stops working, on the local clock.
  public var expiresAt: Date { issuedAt.addingTimeInterval(expiresIn) }

  /// Names the user code and verification URI; never the device code.
  public var description: String {
    "DeviceAuthorization(userCode: \(userCode), verificationURI: \(verificationURI), "
      + "expiresAt: \(expiresAt), interval: \(interval))"
  }
}
