import Foundation
import SocialLogin

/// A real transport that also records which endpoints were called, and with which grant.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
  // `calls` is only touched under `lock`.
  private let lock = NSLock()
  private var calls: [(path: String, grant: String?)] = []
  private let base = URLSessionTransport()

  func send(_ request: TransportRequest) async throws -> TransportResponse {
    let body = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
    let grant = FormEncoding.decode(body).first { $0.0 == "grant_type" }?.1
    lock.withLock { calls.append((request.url.path, grant)) }
    return try await base.send(request)
  }

  func count(grant: String) -> Int {
    lock.withLock { calls.filter { $0.grant == grant }.count }
  }

  func count(pathSuffix: String) -> Int {
    lock.withLock { calls.filter { $0.path.hasSuffix(pathSuffix) }.count }
  }
}
