/// A cluster node's answer that the command must go elsewhere or again, read from its error
/// reply. Pure.
enum ClusterRedirect: Equatable, Sendable {
  /// `MOVED slot host:port`: the slot lives on another master for good; refresh the map.
  case moved(slot: UInt16, to: RedisConfiguration.Endpoint)
  /// `ASK slot host:port`: the slot is migrating and this key is already there; send
  /// `ASKING` then the command to that node, once, without changing the map.
  case ask(slot: UInt16, to: RedisConfiguration.Endpoint)
  /// `TRYAGAIN`: a multi-key command during resharding; retry shortly.
  case tryAgain
  /// `CLUSTERDOWN`: the cluster cannot serve the slot now (a failover in progress).
  case clusterDown
  /// The node could not be connected to (the command was never sent).
  case unreachable

  /// The redirect an error reply asks for; `nil` for any other reply.
  ///
  /// - Parameter currentHost: The host of the node that answered (a redirect with an empty
  ///   host means that host).
  /// - Throws: ``RedisError`` of kind ``RedisError/Kind/unexpectedReply`` for a `MOVED` or
  ///   `ASK` whose slot or address is not valid.
  static func of(_ reply: RESPValue, currentHost: String) throws(RedisError) -> ClusterRedirect? {
    guard case .error(let message) = reply else { return nil }
    let words = message.split(separator: " ", omittingEmptySubsequences: true)
    guard let code = words.first else { return nil }
    switch code {
    case "MOVED", "ASK":
      guard words.count == 3, let slot = UInt16(words[1]), Int(slot) < HashSlot.count,
        let target = ClusterEndpoint.parse(words[2], currentHost: currentHost)
      else {
        throw RedisError(
          .unexpectedReply, "Redis answered a malformed \(code) redirect.",
          serverMessage: String(message.prefix(200)))
      }
      return code == "MOVED" ? .moved(slot: slot, to: target) : .ask(slot: slot, to: target)
    case "TRYAGAIN": return .tryAgain
    case "CLUSTERDOWN": return .clusterDown
    default: return nil
    }
  }
}

/// What to do with a command after a ``ClusterRedirect``, bounded: a command follows at most
/// ``maximumRedirects`` redirects and waits out at most ``maximumRetries`` retries (with
/// growing delays), then its last error reply stands. Pure.
struct ClusterRetry: Equatable, Sendable {
  static let maximumRedirects = 5
  static let maximumRetries = 12

  /// Redirects and retries this command has had.
  var redirects = 0
  var retries = 0

  enum Action: Equatable, Sendable {
    /// Send to `endpoint` (after `ASKING` when `asking`); `refreshMap` after a `MOVED`.
    case redirect(to: RedisConfiguration.Endpoint, asking: Bool, refreshMap: Bool)
    /// Route again by the (refreshed) map after `delay`.
    case retry(after: Duration, refreshMap: Bool)
    /// Give up: the last reply stands (or the node's error is thrown).
    case giveUp
  }

  /// The next step after `redirect`, counting it.
  mutating func next(after redirect: ClusterRedirect) -> Action {
    switch redirect {
    case .moved(_, let target), .ask(_, let target):
      redirects += 1
      guard redirects <= Self.maximumRedirects else { return .giveUp }
      if case .moved = redirect { return .redirect(to: target, asking: false, refreshMap: true) }
      return .redirect(to: target, asking: true, refreshMap: false)
    case .tryAgain, .clusterDown, .unreachable:
      retries += 1
      guard retries <= Self.maximumRetries else { return .giveUp }
      // 25 ms, 50 ms, ... at most 400 ms: a failover settles within a node timeout or so.
      let delay = Duration.milliseconds(25 << min(retries - 1, 4))
      return .retry(after: delay, refreshMap: redirect != .tryAgain)
    }
  }
}
