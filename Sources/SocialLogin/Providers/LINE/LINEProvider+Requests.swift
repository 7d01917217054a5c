import Foundation

extension LINEProvider {
  /// GETs `url` (with `query`, and a Bearer token when given) and returns the JSON object of
  /// a 200 answer; failures follow `LINEAPIError`. Messages never contain the token.
  func get(
    _ url: URL, query: [(String, String)] = [], bearer: Secret? = nil, operation: String
  ) async throws -> [String: JSONValue] {
    var target = url
    if !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
      let encoded = FormEncoding.encode(query)
      let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
      components.percentEncodedQuery = existing + encoded
      target = components.url ?? url
    }
    var headers: HTTPHeaderFields = ["Accept": "application/json"]
    if let bearer { headers["Authorization"] = "Bearer \(bearer.revealed)" }
    let request = TransportRequest(
      url: target, headers: headers, timeout: configuration.requestTimeout)
    let secrets = query.map(\.1) + (bearer.map { [$0.revealed] } ?? [])
    do {
      let response = try await transport.send(request, operation: operation, provider: .line)
      let now = clock.wallTime
      guard response.isSuccess else {
        throw LINEAPIError.failure(response, operation: operation, now: now)
      }
      guard let object = response.jsonObject else {
        throw AuthError(
          .invalidResponse,
          "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
          provider: .line, httpStatus: response.status)
      }
      return object
    } catch let error as AuthError {
      throw error.masking(secrets)
    }
  }
}
