import Foundation
import LoopbackHTTP
import SocialLogin

/// Routes each request to its provider, applies injected faults, stamps the `Date` header and
/// records the transcript.
final class EmulatorDispatcher: Sendable {
  let environment: EmulatorEnvironment
  let table: EmulatorRouteTable
  private let faults = Locked([FaultEntry]())
  private let transcript = Locked(Transcript())

  struct FaultEntry: Sendable {
    var fault: EmulatorFault
    var remaining: Int?
  }

  struct Transcript: Sendable {
    var records: [EmulatorRequestRecord] = []
    var next = 1
  }

  /// The most records kept; older ones are dropped (a long-running emulator must not grow).
  static let transcriptLimit = 100_000

  init(environment: EmulatorEnvironment, describing described: [ProviderDescription] = []) {
    self.environment = environment
    table = EmulatorRouteTable(EmulatorRouteTable.makeProviders(environment, describing: described))
  }

  // MARK: Faults

  func inject(_ fault: EmulatorFault) {
    faults.withLock { $0.append(FaultEntry(fault: fault, remaining: fault.count)) }
  }

  func clearFaults() { faults.withLock { $0.removeAll() } }

  var activeFaults: [EmulatorFault] {
    faults.withLock { entries in
      entries.map { entry in
        var fault = entry.fault
        fault.count = entry.remaining
        return fault
      }
    }
  }

  /// Takes the first fault matching the request, counting it down.
  private func takeFault(provider: ProviderID, endpoint: String, grantType: String?)
    -> EmulatorFault?
  {
    faults.withLock { entries in
      guard
        let index = entries.firstIndex(where: {
          $0.fault.matches(provider: provider, endpoint: endpoint, grantType: grantType)
        })
      else { return nil }
      let fault = entries[index].fault
      if let remaining = entries[index].remaining {
        if remaining <= 1 {
          entries.remove(at: index)
        } else {
          entries[index].remaining = remaining - 1
        }
      }
      return fault
    }
  }

  // MARK: Transcript

  var requests: [EmulatorRequestRecord] { transcript.withLock { $0.records } }

  func clearRequests() { transcript.withLock { $0.records.removeAll() } }

  private func record(
    _ request: EmulatorRequest, provider: ProviderID, endpoint: String, status: Int,
    fault: EmulatorFault?
  ) {
    let query = EmulatorRequestRecord.redacted(request.query.map { ($0.name, $0.value) })
    let form = EmulatorRequestRecord.redacted(request.form.map { ($0.name, $0.value) })
    transcript.withLock { transcript in
      transcript.records.append(
        EmulatorRequestRecord(
          sequence: transcript.next, provider: provider, endpoint: endpoint,
          method: request.method, path: "/" + request.host + request.path, status: status,
          grantType: request.parameter("grant_type"), query: query, form: form,
          fault: fault?.label, time: request.now))
      transcript.next += 1
      if transcript.records.count > Self.transcriptLimit {
        transcript.records.removeFirst(transcript.records.count - Self.transcriptLimit)
      }
    }
  }

  // MARK: Dispatch

  /// Answers one provider request (`/<host>/<path>`).
  func handle(_ http: HTTPRequest, host: String, path: String) async -> HTTPResponse {
    let request = EmulatorRequest(http: http, host: host, path: path, now: environment.now)
    switch table.match(method: http.method, host: host, path: path) {
    case .unknownHost:
      let response = EmulatorJSON.response(
        [
          "error": "unknown_host",
          "error_description": .string("The emulator serves no provider at \(host)."),
        ], status: 404)
      record(request, provider: "emulator", endpoint: "unknown", status: 404, fault: nil)
      return stamped(response, skew: nil)
    case .notFound(let provider):
      record(request, provider: provider.name, endpoint: "unknown", status: 404, fault: nil)
      return stamped(provider.notFound(request), skew: nil)
    case .methodNotAllowed(let provider, let allowed):
      var response = provider.notFound(request)
      response.status = 405
      response.reason = HTTPResponse.standardReason(for: 405)
      response.headers.replaceOrAdd(name: "Allow", value: allowed.sorted().joined(separator: ", "))
      record(request, provider: provider.name, endpoint: "unknown", status: 405, fault: nil)
      return stamped(response, skew: nil)
    case .route(let route, let provider):
      let fault = takeFault(
        provider: provider.name, endpoint: route.endpoint,
        grantType: request.parameter("grant_type"))
      if let milliseconds = fault?.latencyMilliseconds, milliseconds > 0 {
        try? await Task.sleep(for: .milliseconds(min(milliseconds, 600_000)))
        if Task.isCancelled {
          // The client went away while its request was held (the server cancels the handler):
          // like a provider whose client disconnected before it answered, nothing is spent.
          record(
            request, provider: provider.name, endpoint: route.endpoint, status: 0, fault: fault)
          return .dropConnection
        }
      }
      if fault?.drop == true {
        record(request, provider: provider.name, endpoint: route.endpoint, status: 0, fault: fault)
        return .dropConnection
      }
      if provider.usesRS256(endpoint: route.endpoint) { await environment.keys.prepareRS256() }
      var response = answer(request, route: route, provider: provider, fault: fault)
      if let body = fault?.body { response = Self.broken(response, body: body) }
      record(
        request, provider: provider.name, endpoint: route.endpoint, status: response.status,
        fault: fault)
      return stamped(response, skew: fault?.dateSkewSeconds)
    }
  }

  private func answer(
    _ request: EmulatorRequest, route: EmulatorRoute, provider: any EmulatedProvider,
    fault: EmulatorFault?
  ) -> HTTPResponse {
    if let status = fault?.status, let fault {
      return provider.faultResponse(status: status, fault: fault, request: request)
    }
    if let reason = fault?.refreshToken {
      return provider.refreshTokenRejected(reason, request: request)
    }
    if fault?.accountDisabled == true {
      return provider.accountDisabled(endpoint: route.endpoint, request: request)
    }
    return route.handler(request)
  }

  /// `response` with its body broken the way `body` says.
  static func broken(_ response: HTTPResponse, body: EmulatorFault.Body) -> HTTPResponse {
    var broken = response
    switch body {
    case .html:
      broken.headers.replaceOrAdd(name: "Content-Type", value: "text/html; charset=utf-8")
      broken.body = Array(
        ("<!doctype html><html><head><title>Error</title></head><body><h1>Something went "
          + "wrong</h1><p>Please try again later.</p></body></html>\n").utf8)
    case .truncated:
      broken.body = Array(response.body.prefix(max(1, response.body.count / 2)))
    case .malformed:
      broken.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
      broken.body = Array("{\"access_token\": \u{1}not json at all".utf8)
    }
    return broken
  }

  /// Adds `Date` from the emulator's clock (plus `skew` seconds), so clients correct their
  /// clock by the emulator's, as they would by a provider's.
  func stamped(_ response: HTTPResponse, skew: Int?) -> HTTPResponse {
    guard response.rawWireBytes == nil else { return response }
    var stamped = response
    let date = environment.now.addingTimeInterval(TimeInterval(skew ?? 0))
    stamped.headers.replaceOrAdd(name: "Date", value: EmulatorJSON.httpDate(date))
    return stamped
  }
}
