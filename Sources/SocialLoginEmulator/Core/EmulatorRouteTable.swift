import Foundation
import LoopbackHTTP
import SocialLogin

/// The one route table: every emulated provider's routes, found by production host and path.
struct EmulatorRouteTable: Sendable {
  /// The emulated providers, in the order of the status document. A hand-written provider is
  /// one line here and one file conforming to ``EmulatedProvider``; every built-in
  /// ``ProviderDescription``, and each of `described` (descriptions the SDK does not ship), is
  /// served by ``EmulatedDescribed`` with no line here at all. A described id that another
  /// provider already has is skipped.
  static func makeProviders(
    _ environment: EmulatorEnvironment, describing described: [ProviderDescription] = []
  ) -> [any EmulatedProvider] {
    var providers: [any EmulatedProvider] = [
      EmulatedFacebook(environment),
      EmulatedX(environment),
      EmulatedLINE(environment),
      EmulatedOIDC(environment),
      EmulatedGoogle(environment),
      EmulatedFirebase(environment),
      EmulatedApple(environment),
    ]
    for description in ProviderDescription.builtIn + described
    where !providers.contains(where: { $0.name == description.id }) {
      providers.append(EmulatedDescribed(description, environment))
    }
    return providers
  }

  let providers: [any EmulatedProvider]
  private let byHost: [String: [(route: EmulatorRoute, provider: Int)]]
  private let providerOfHost: [String: Int]

  init(_ providers: [any EmulatedProvider]) {
    self.providers = providers
    var byHost: [String: [(route: EmulatorRoute, provider: Int)]] = [:]
    var providerOfHost: [String: Int] = [:]
    for (index, provider) in providers.enumerated() {
      for route in provider.routes {
        byHost[route.host, default: []].append((route, index))
        if providerOfHost[route.host] == nil { providerOfHost[route.host] = index }
      }
    }
    self.byHost = byHost
    self.providerOfHost = providerOfHost
  }

  enum Match {
    case route(EmulatorRoute, any EmulatedProvider)
    case methodNotAllowed(any EmulatedProvider, allowed: Set<String>)
    case notFound(any EmulatedProvider)
    case unknownHost
  }

  /// Finds the route for `method` on `host` + `path`.
  func match(method: String, host: String, path: String) -> Match {
    guard let routes = byHost[host], let owner = providerOfHost[host] else { return .unknownHost }
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    var allowed: Set<String> = []
    var allowedOwner: Int?
    for (route, index) in routes where route.matches(path: segments) {
      if route.methods.contains(method) || (method == "HEAD" && route.methods.contains("GET")) {
        return .route(route, providers[index])
      }
      allowed.formUnion(route.methods)
      allowedOwner = allowedOwner ?? index
    }
    if let allowedOwner { return .methodNotAllowed(providers[allowedOwner], allowed: allowed) }
    return .notFound(providers[owner])
  }

  /// Every endpoint name of `provider`.
  func endpoints(of provider: ProviderID) -> [String] {
    var names: [String] = []
    for candidate in providers where candidate.name == provider {
      for route in candidate.routes where !names.contains(route.endpoint) {
        names.append(route.endpoint)
      }
    }
    return names
  }
}
