import Foundation

/// Wraps the transport an ``XProvider`` uses so that X's rate-limit reset becomes the
/// `Retry-After` every engine already honours.
///
/// X answers `429 Too Many Requests` with `x-rate-limit-reset: <epoch seconds>` (on X's clock)
/// and usually no `Retry-After`. For such a response this adds `Retry-After: <seconds>`, the
/// whole seconds from X's `Date` (or, without one, from the local clock) to the reset, rounded
/// up so that no retry happens before the window reopens. Other responses pass unchanged.
struct XRateLimitTransport: HTTPTransport {
  let base: any HTTPTransport
  let clock: any AuthClock

  func send(_ request: TransportRequest) async throws -> TransportResponse {
    var response = try await base.send(request)
    guard response.status == 429, response.headers["Retry-After"] == nil,
      let reset = Self.resetTime(response)
    else { return response }
    let now = response.serverDate ?? clock.wallTime
    let seconds = max(0, (reset.timeIntervalSince(now)).rounded(.up))
    guard seconds.isFinite, seconds < 1e9 else { return response }
    response.headers["Retry-After"] = String(Int(seconds))
    return response
  }

  /// `x-rate-limit-reset` as a date: decimal digits only, at most 12 of them.
  static func resetTime(_ response: TransportResponse) -> Date? {
    guard let text = response.headers["x-rate-limit-reset"]?.trimmingCharacters(in: .whitespaces),
      !text.isEmpty, text.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let seconds = Int64(text)
    else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }
}
