import Foundation
import SocialLogin

/// The device logins (RFC 8628, Facebook Login for Devices) the emulated providers have
/// started and not yet finished: what the verification page and the control API
/// (`/_emulator/device/...`) approve or deny, and what the token endpoints answer polls from.
final class EmulatedDeviceGrants: Sendable {
  /// What the user decided.
  enum Decision: Sendable, Equatable {
    case pending
    case approved(userID: String)
    case denied
  }

  /// One device login.
  struct Grant: Sendable {
    let deviceCode: String
    let userCode: String
    let provider: ProviderID
    let clientID: String
    let scopes: [String]
    let issuedAt: Date
    let expiresAt: Date
    /// The interval the client must keep; grows by 5 s with every `slow_down`.
    var interval: TimeInterval
    var decision: Decision = .pending
    var lastPoll: Date?
    var redeemed = false
  }

  /// What a poll finds.
  enum Poll: Sendable {
    case unknown
    case pending
    case slowDown(interval: TimeInterval)
    case denied
    case expired
    case approved(Grant)
  }

  /// How many grants are kept at most: old ones go first, so a client that starts logins in
  /// a loop cannot grow the emulator without bound.
  static let capacity = 1000

  private let grants = Locked<[String: Grant]>([:])

  /// Starts a device login: a fresh device code and a user code in the RFC 8628 §6.1 form
  /// (`BCDF-GHJK`: consonants only, so no word is spelled and nothing is mistaken for a digit).
  func start(
    provider: ProviderID, clientID: String, scopes: [String], now: Date,
    lifetime: TimeInterval = 600, interval: TimeInterval = 5, codePrefix: String
  ) -> Grant {
    let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
    var generator = SystemRandomNumberGenerator()
    let raw = String((0..<8).map { _ in letters.randomElement(using: &generator) ?? "B" })
    let grant = Grant(
      deviceCode: TokenRegistry.makeValue(prefix: codePrefix),
      userCode: String(raw.prefix(4)) + "-" + String(raw.suffix(4)), provider: provider,
      clientID: clientID, scopes: scopes, issuedAt: now,
      expiresAt: now.addingTimeInterval(lifetime), interval: interval)
    grants.withLock { grants in
      if grants.count >= Self.capacity,
        let oldest = grants.values.min(by: { $0.issuedAt < $1.issuedAt })
      {
        grants[oldest.deviceCode] = nil
      }
      grants[grant.deviceCode] = grant
    }
    return grant
  }

  /// The user code as people type it: case, spaces and dashes do not matter.
  static func normalized(_ userCode: String) -> String {
    String(userCode.uppercased().filter { $0.isLetter || $0.isNumber })
  }

  /// The grant a user code names, while it is pending and not expired.
  func pendingGrant(userCode: String, now: Date) -> Grant? {
    let wanted = Self.normalized(userCode)
    guard !wanted.isEmpty else { return nil }
    return grants.withLock { grants in
      grants.values.first {
        Self.normalized($0.userCode) == wanted && $0.decision == .pending && $0.expiresAt > now
      }
    }
  }

  /// The grants waiting for the user, oldest first.
  func pending(now: Date) -> [Grant] {
    grants.withLock { grants in
      grants.values.filter { $0.decision == .pending && $0.expiresAt > now }
        .sorted { $0.issuedAt < $1.issuedAt }
    }
  }

  /// Approves (as `userID`) or denies the pending grant of `userCode`; `nil` when there is
  /// none.
  func decide(userCode: String, _ decision: Decision, now: Date) -> Grant? {
    guard let found = pendingGrant(userCode: userCode, now: now) else { return nil }
    return grants.withLock { grants in
      grants[found.deviceCode]?.decision = decision
      return grants[found.deviceCode]
    }
  }

  /// Answers one poll with `deviceCode` from `clientID`. Polling sooner than the interval
  /// answers `slow_down` and adds 5 s (RFC 8628 §3.5); an approved grant is redeemed once.
  func poll(deviceCode: String, provider: ProviderID, clientID: String, now: Date) -> Poll {
    grants.withLock { grants in
      guard var grant = grants[deviceCode], grant.provider == provider,
        grant.clientID == clientID, !grant.redeemed
      else { return .unknown }
      guard grant.expiresAt > now else { return .expired }
      defer { grants[deviceCode] = grant }
      if let last = grant.lastPoll, now.timeIntervalSince(last) < grant.interval,
        grant.decision == .pending
      {
        grant.interval += 5
        grant.lastPoll = now
        return .slowDown(interval: grant.interval)
      }
      grant.lastPoll = now
      switch grant.decision {
      case .pending: return .pending
      case .denied:
        grant.redeemed = true
        return .denied
      case .approved:
        grant.redeemed = true
        return .approved(grant)
      }
    }
  }
}
