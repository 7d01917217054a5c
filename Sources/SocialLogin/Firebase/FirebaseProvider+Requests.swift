import Foundation

extension FirebaseProvider {
  /// POSTs `body` as JSON to Identity Toolkit `path` and returns the 2xx response's object.
  func postIdentityToolkit<Body: Encodable>(
    _ path: String, body: Body, operation: String, secrets: [String],
    headers: HTTPHeaderFields = [:]
  ) async throws -> [String: JSONValue] {
    var request = try TransportRequest.json(
      url: try configuration.identityToolkit(path), body: body, headers: headers)
    request.timeout = configuration.requestTimeout
    return try await send(request, operation: operation, secrets: secrets).object
  }

  /// Sends `request`, turning transport failures and Firebase errors into ``AuthError``s
  /// whose messages never contain `secrets`.
  func send(_ request: TransportRequest, operation: String, secrets: [String]) async throws
    -> (object: [String: JSONValue], response: TransportResponse)
  {
    do {
      let response = try await transport.send(
        request, operation: operation, provider: .firebase)
      guard response.isSuccess else {
        throw response.firebaseFailure(operation, now: clock.wallTime)
      }
      guard let object = response.jsonObject else {
        throw AuthError(
          .invalidResponse,
          "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
          provider: .firebase, httpStatus: response.status)
      }
      return (object, response)
    } catch let error as AuthError {
      throw error.masking(secrets + [configuration.apiKey])
    }
  }
}
