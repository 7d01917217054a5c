import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension HTTPTransport {
  /// Sends `request` on behalf of `provider`, the way every provider call treats transport
  /// failures: an ``AuthError`` from the transport gets the provider set (if it has none),
  /// cancellation stays `CancellationError`, and any other error becomes
  /// ``AuthError/Code/network`` naming `operation`. The response is returned whatever its
  /// status; judging it is the caller's job.
  ///
  /// Every provider request carries a secret or a token, so a URL that is neither `https` nor
  /// `http` to a loopback host is refused with ``AuthError/Code/configuration`` before
  /// anything is sent, whatever set it (an endpoint override, an emulator host).
  func send(_ request: TransportRequest, operation: String, provider: ProviderID) async throws
    -> TransportResponse
  {
    try request.url.requireHTTPSOrLoopback("URL of \(operation)", provider: provider)
    do {
      return try await send(request)
    } catch var error as AuthError {
      if error.provider == nil { error.provider = provider }
      throw error
    } catch let error as CancellationError {
      throw error
    } catch {
      throw AuthError(
        .network, "\(operation) failed: \(ErrorText.excerpt(error.localizedDescription))",
        provider: provider, underlying: error,
        answerLost: (error as? URLError)?.code.mayHaveLostAnAnswer ?? false)
    }
  }
}
