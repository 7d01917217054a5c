import Foundation

extension URL {
  /// Whether the URL may carry tokens and trusted keys: `https`, or `http` to a loopback
  /// host (`127.0.0.0/8`, `::1`, `localhost`), where nothing leaves the machine (the emulator,
  /// test peers, a provider on this host).
  ///
  /// Issuers, discovered endpoints and JWKS URLs over plain `http` to any other host would
  /// let anyone on the path read tokens or swap the signing keys.
  var isHTTPSOrLoopback: Bool {
    switch scheme?.lowercased() {
    case "https": return host != nil
    case "http": return host.map(Self.isLoopbackHost) ?? false
    default: return false
    }
  }

  /// `127.0.0.0/8` in dotted-quad form, `::1` (with or without brackets), or `localhost`.
  ///
  /// Numeric forms are read exactly as `inet_pton` reads them, which is what decides whether
  /// the resolver connects to the address or looks the text up in DNS: four decimal octets
  /// of at most 255 with no leading zero (`127.0.0.08` is not an address to glibc, which
  /// reads a leading `0` as octal, so it would be resolved through DNS and may name any
  /// machine), and the IPv6 forms of `::1`. A host with a NUL byte, which would end the C
  /// string early, is never loopback.
  static func isLoopbackHost(_ host: String) -> Bool {
    guard !host.utf8.contains(0), host.utf8.count <= 64 else { return false }
    let name = host.lowercased()
    if name == "localhost" || name == "localhost." { return true }
    if name.hasPrefix("[") && name.hasSuffix("]") {
      return isIPv6Loopback(String(name.dropFirst().dropLast()))
    }
    var address = in_addr()
    if inet_pton(AF_INET, name, &address) == 1 {
      // `s_addr` is in network byte order: its first byte in memory is the first octet.
      return withUnsafeBytes(of: &address) { $0.first == 127 }
    }
    return isIPv6Loopback(name)
  }

  /// Whether `text` is an IPv6 address (as `inet_pton` reads it) equal to `::1`.
  private static func isIPv6Loopback(_ text: String) -> Bool {
    var address = in6_addr()
    guard inet_pton(AF_INET6, text, &address) == 1 else { return false }
    return withUnsafeBytes(of: &address) { bytes in
      bytes.count == 16 && bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
    }
  }

  /// Throws ``AuthError/Code/configuration`` unless ``isHTTPSOrLoopback``. The message shows
  /// the URL without its query, fragment and user info, which may hold secrets.
  func requireHTTPSOrLoopback(_ what: String, provider: ProviderID?) throws(AuthError) {
    guard isHTTPSOrLoopback else {
      throw AuthError(
        .configuration,
        "The \(what) \(withoutSecrets) must use https (plain http is allowed only to loopback "
          + "hosts: 127.0.0.0/8, ::1, localhost).",
        provider: provider)
    }
  }

  /// `scheme://host:port/path`: the URL without the parts that may carry secrets.
  var withoutSecrets: String {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
      return "(an unparsable URL)"
    }
    components.user = nil
    components.password = nil
    components.query = nil
    components.fragment = nil
    return components.string ?? "(an unparsable URL)"
  }
}
