import Foundation

/// An authorization request ready to open in a browser.
public struct AuthorizationRequest: Sendable {
  /// The URL to open.
  public var url: URL
  /// What to keep until the callback arrives.
  public var pending: PendingLogin

  /// Creates a request.
  public init(url: URL, pending: PendingLogin) {
    self.url = url
    self.pending = pending
  }
}
