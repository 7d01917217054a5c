import Foundation

/// The HTTP half of the key caches: one `GET` of a key document (a JWKS, Firebase's certificate
/// map) within ``JWKSCache/Policy``'s timeout and size limit, and the status check.
///
/// ``JWKSCache`` and ``FirebaseCertificateCache`` share it, so both classify failures the same
/// way (a thrown transport error stays as it is or becomes `network`; 5xx and 429 are
/// `serverUnavailable`, any other non-200 `invalidResponse`) and both take their freshness from
/// ``JWKSCache/Policy/timeToLive(for:)`` on the returned headers. A URL that is neither `https`
/// nor `http` to a loopback host is refused (``AuthError/Code/configuration``) unfetched.
enum KeyDocumentFetch {
  /// `GET url` asking for JSON; the response when it is HTTP 200.
  ///
  /// - Parameters:
  ///   - endpoint: How the status error names the endpoint (`"JWKS"`).
  ///   - provider: The provider the status error names, if any.
  ///   - networkMessage: The message of the `network` error for a transport failure.
  static func get(
    _ url: URL, transport: any HTTPTransport, policy: JWKSCache.Policy, endpoint: String,
    provider: ProviderID?, networkMessage: (any Error) -> String
  ) async -> Result<TransportResponse, AuthError> {
    // Keys decide which tokens are trusted: never over plain http to another machine.
    do throws(AuthError) {
      try url.requireHTTPSOrLoopback("\(endpoint) URL", provider: provider)
    } catch {
      return .failure(error)
    }
    let request = TransportRequest(
      url: url, headers: ["Accept": "application/json"], timeout: policy.timeout,
      maxResponseBytes: policy.maximumDocumentBytes)
    let response: TransportResponse
    do {
      response = try await transport.send(request)
    } catch let error as AuthError {
      return .failure(error)
    } catch {
      return .failure(AuthError(.network, networkMessage(error), underlying: error))
    }
    guard response.status == 200 else {
      let code: AuthError.Code =
        response.status >= 500 || response.status == 429 ? .serverUnavailable : .invalidResponse
      return .failure(
        AuthError(
          code, "The \(endpoint) endpoint answered HTTP \(response.status).", provider: provider,
          httpStatus: response.status))
    }
    return .success(response)
  }
}
