import Foundation
import SocialLogin

/// A real transport that also records which endpoints were called, and with which grant.
final class RecordingTransport: HTTPTransport {
  private struct Call {
    var path: String
    var grant: String?
  }
  private let calls = Locked<[Call]>([])
  private let base = URLSessionTransport()

  func send(_ request: TransportRequest) async throws -> TransportResponse {
    let body = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
    let grant = FormEncoding.decode(body).first { $0.0 == "grant_type" }?.1
    calls.withLock { $0.append(Call(path: request.url.path, grant: grant)) }
    return try await base.send(request)
  }

  func count(grant: String) -> Int {
    calls.withLock { $0.filter { $0.grant == grant }.count }
  }

  func count(pathSuffix: String) -> Int {
    calls.withLock { $0.filter { $0.path.hasSuffix(pathSuffix) }.count }
  }
}
