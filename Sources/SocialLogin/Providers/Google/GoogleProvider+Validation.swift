import Foundation

extension GoogleProvider {
  /// Enforces ``GoogleConfiguration/hostedDomains`` on an ID token's claims: with a list
  /// configured, `hd` must be one of its domains (compared without letter case). Consumer
  /// accounts (gmail.com) carry no `hd` and are refused.
  ///
  /// - Throws: ``AuthError/Code/hostedDomainMismatch``.
  nonisolated func checkHostedDomain(_ claims: [String: JSONValue]) throws(AuthError) {
    let allowed = configuration.hostedDomains.map { $0.lowercased() }
    guard !allowed.isEmpty else { return }
    guard let domain = claims["hd"]?.stringValue, !domain.isEmpty else {
      throw AuthError(
        .hostedDomainMismatch,
        "The Google account belongs to no Workspace domain (its ID token has no 'hd'); this "
          + "service admits accounts of \(allowed.joined(separator: ", ")) only.",
        provider: id)
    }
    guard allowed.contains(domain.lowercased()) else {
      throw AuthError(
        .hostedDomainMismatch,
        "The Google account belongs to the Workspace domain "
          + "'\(ErrorText.excerpt(domain, limit: 253))'; this service admits accounts of "
          + "\(allowed.joined(separator: ", ")) only.",
        provider: id)
    }
  }
}
