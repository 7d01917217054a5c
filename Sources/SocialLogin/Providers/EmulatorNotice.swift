import Foundation

/// A provider whose requests may go to an emulator (Facebook, LINE, X, Google, Firebase), so that
/// ``LoginClient`` can say so.
protocol EmulatorRouted: LoginProvider {
  /// The emulator the provider's requests go to, if any.
  nonisolated var emulatorInUse: EmulatorHost? { get }
}

extension FacebookProvider: EmulatorRouted {
  nonisolated var emulatorInUse: EmulatorHost? { configuration.emulatorHost }
}

extension LINEProvider: EmulatorRouted {
  nonisolated var emulatorInUse: EmulatorHost? { configuration.emulatorHost }
}

extension GoogleProvider: EmulatorRouted {
  nonisolated var emulatorInUse: EmulatorHost? { configuration.emulatorHost }
}

extension XProvider: EmulatorRouted {
  nonisolated var emulatorInUse: EmulatorHost? {
    switch flow {
    case .oauth2(let configuration): configuration.emulatorHost
    case .oauth1(let configuration): configuration.emulatorHost
    }
  }
}

extension FirebaseProvider: EmulatorRouted {
  nonisolated var emulatorInUse: EmulatorHost? { configuration.emulatorHost }
}

/// The warning a process logs, once per emulator host, when providers send their requests to
/// an emulator instead of the real providers: an environment variable left exported must not
/// go unnoticed.
enum EmulatorNotice {
  /// The emulator hosts already announced in this process. Process-wide on purpose: the
  /// warning is once per process, however many clients are created.
  private static let announced = Locked<Set<String>>([])

  /// Logs one warning per emulator host of `providers` not yet announced in this process, if
  /// `logger` emits warnings (a silent logger does not use up the announcement). The record
  /// names the host and the providers, nothing else.
  static func announce(_ providers: [any LoginProvider], logger: AuthLogger) {
    guard logger.isEnabled(.warning) else { return }
    var byHost: [String: [String]] = [:]
    for provider in providers {
      guard let routed = provider as? any EmulatorRouted, let host = routed.emulatorInUse
      else { continue }
      byHost[host.description, default: []].append(provider.id.rawValue)
    }
    for (host, ids) in byHost.sorted(by: { $0.key < $1.key }) {
      let isNew = announced.withLock { $0.insert(host).inserted }
      guard isNew else { continue }
      let names = ids.sorted().joined(separator: ", ")
      logger.log(
        .warning,
        "Requests of \(names) go to the provider emulator at \(host) over plain http, not to "
          + "the real providers (emulatorHost, \(EmulatorHost.environmentVariable) or "
          + "\(FirebaseProvider.Configuration.emulatorEnvironmentVariable)).",
        metadata: ["emulator": host, "providers": names])
    }
  }
}

/// The error record a client logs when one of its providers accepts unsigned ID tokens
/// (``FirebaseProvider/Configuration/acceptsUnsignedEmulatorTokens``): any caller could then
/// be any user, so it is said at error level every time a client is made with it, never once
/// and forgotten.
enum UnsignedTokenNotice {
  /// Logs one ``AuthLogLevel/error`` record per provider of `providers` that accepts unsigned
  /// ID tokens.
  static func announce(_ providers: [any LoginProvider], logger: AuthLogger) {
    for provider in providers {
      guard let firebase = provider as? FirebaseProvider,
        firebase.configuration.acceptsUnsignedTokens
      else { continue }
      logger.log(
        .error,
        "Firebase ID tokens without a signature (alg none) are accepted: any caller can claim "
          + "any user. acceptsUnsignedEmulatorTokens is for tests against the Firebase Auth "
          + "emulator only.",
        metadata: ["provider": provider.id.rawValue])
    }
  }
}
