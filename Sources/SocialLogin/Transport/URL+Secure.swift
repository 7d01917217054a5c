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
  static func isLoopbackHost(_ host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name == "localhost" || name == "localhost." || name == "::1"
      || name == "0:0:0:0:0:0:0:1"
    {
      return true
    }
    let octets = name.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4, octets[0] == "127" else { return false }
    return octets.allSatisfy { octet in
      !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && UInt8(octet) != nil
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
