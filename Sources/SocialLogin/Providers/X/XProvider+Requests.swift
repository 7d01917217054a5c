import Foundation

extension XProvider {
  /// Sends `request`; a transport failure that is not an ``AuthError`` becomes
  /// ``AuthError/Code/network``. Every value of `secrets` is masked in the errors.
  func send(
    _ request: TransportRequest, operation: String, secrets: [Secret]
  ) async throws -> TransportResponse {
    do {
      return try await transport.send(request, operation: operation, provider: id)
    } catch let error as AuthError {
      throw error.masking(secrets.map(\.revealed))
    }
  }
}
