import Foundation
import SocialLogin
import SocialLoginRedis

/// Where the CLI keeps sessions: a ``FileSessionStore`` directory by default, or any store a
/// `--store` value names. The one place that turns `--store` into a store, so another kind of
/// store (`--store redis://...`) plugs in here through `openShared`.
struct StoreLocation: Sendable {
  /// The sessions.
  let store: any SessionStore
  /// The profiles of the sessions (how each was made, never secrets).
  let profiles: ProfileFile
  /// What to call the store in messages (a path or a URL without its password).
  let displayName: String

  /// The `--store` option, the same for every command that takes one.
  static let option = Option.value(
    "--store", "DIR",
    help: "the session store: a directory (default: $XDG_CONFIG_HOME/sociallogin/sessions or "
      + "~/.config/sociallogin/sessions); the CLI's profiles live inside it in "
      + "DIR/\(ProfileFile.fileName); or "
      + "redis://[user:password@]host:port/db, rediss://...[?ca=PATH&cert=PATH&key=PATH] "
      + "(TLS), unix:///path or redis-sentinel://host:port[,host:port...][/db]#master "
      + "(rediss-sentinel:// for TLS) (shared by many machines)")

  /// Opens the store that `--store` names in `invocation` (or the default directory).
  ///
  /// - Throws: ``UsageError`` for `--key-prefix` without a Redis store, or an empty one.
  static func open(_ invocation: Invocation) async throws -> StoreLocation {
    var keyPrefix = invocation.arguments.value(keyPrefixOption)
    if keyPrefix == RedisSessionStore.Options().keyPrefix { keyPrefix = nil }  // the default
    if let keyPrefix, keyPrefix.isEmpty || keyPrefix.contains(where: \.isWhitespace) {
      throw UsageError("--key-prefix needs a non-empty prefix without spaces")
    }
    guard let value = invocation.arguments.value(option) else {
      if keyPrefix != nil { throw UsageError("--key-prefix needs a Redis --store") }
      return try directory(defaultDirectory(invocation.environment))
    }
    if let scheme = value.range(of: "://").map({ String(value[..<$0.lowerBound]) }) {
      return try await openShared(
        URL(string: value), scheme: scheme.lowercased(), text: value,
        sealingPath: invocation.arguments.value(sealingOption), keyPrefix: keyPrefix,
        environment: invocation.environment)
    }
    if keyPrefix != nil { throw UsageError("--key-prefix needs a Redis --store") }
    return try directory(URL(fileURLWithPath: value, isDirectory: true))
  }

  /// A ``FileSessionStore`` in `url`, with its profiles inside its private directory (a
  /// profile file an earlier version kept beside the directory is moved in).
  static func directory(_ url: URL) throws -> StoreLocation {
    let store = try FileSessionStore(directory: url)
    let profiles = ProfileFile(insideStoreDirectory: store.directory)
    try profiles.adopt(ProfileFile.legacyFile(besideStoreDirectory: url))
    return StoreLocation(store: store, profiles: profiles, displayName: url.path)
  }

  /// A store named by URL: a `RedisSessionStore` for `redis://`, `rediss://` (TLS; the CA and
  /// client certificate may come from `SOCIALLOGIN_REDIS_CA_FILE`, `..._CERT_FILE` and
  /// `..._KEY_FILE`) and `unix://` (the password may come from `SOCIALLOGIN_REDIS_PASSWORD`),
  /// sealed with the key ring of `sealingPath` (see ``sealingKeys(path:environment:)``), with
  /// its profiles in ``sharedProfiles(for:environment:)``.
  static func openShared(
    _ url: URL?, scheme: String, text: String, sealingPath: String? = nil,
    keyPrefix: String? = nil, environment: [String: String]
  ) async throws -> StoreLocation {
    if ["redis-sentinel", "rediss-sentinel"].contains(scheme) {
      return try await openSentinel(
        text, sealingPath: sealingPath, keyPrefix: keyPrefix, environment: environment)
    }
    guard ["redis", "rediss", "unix"].contains(scheme), let url else {
      throw UsageError(
        "--store \(scheme):// is not supported (give a directory, redis://..., rediss://..., "
          + "unix://... or redis-sentinel://...)")
    }
    let store = try await RedisSessionStore.connect(
      url: text, sealing: .keyRing(sealingKeys(path: sealingPath, environment: environment)),
      options: redisOptions(keyPrefix: keyPrefix), environment: environment)
    var shown = URLComponents(url: url, resolvingAgainstBaseURL: false)
    if shown?.password != nil { shown?.password = "***" }
    return StoreLocation(
      store: store,
      profiles: try sharedProfiles(for: url, keyPrefix: keyPrefix, environment: environment),
      displayName: (shown?.string ?? "\(scheme)://…") + prefixShown(keyPrefix))
  }

  /// The profile file for a store that is not a directory: in the private (`0700`) directory
  /// `shared-profiles` of the CLI's configuration directory, named by a hash of the store URL
  /// without its credentials, so two stores never share one and no password reaches a file
  /// name. A file an earlier version kept in the configuration directory itself is moved in.
  /// A store under another `--key-prefix` has profiles of its own.
  static func sharedProfiles(
    for url: URL, keyPrefix: String? = nil, environment: [String: String]
  ) throws -> ProfileFile {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.user = nil
    components?.password = nil
    return try sharedProfiles(
      named: (components?.string ?? url.absoluteString) + prefixShown(keyPrefix), environment)
  }

  /// ``sharedProfiles(for:environment:)`` by the store's name without credentials.
  static func sharedProfiles(named name: String, _ environment: [String: String]) throws
    -> ProfileFile
  {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: a stable name, not a security boundary
    for byte in name.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let configuration = configurationDirectory(environment)
    let directory = configuration.appendingPathComponent("shared-profiles", isDirectory: true)
    try PrivateFiles.prepareDirectory(directory.path)
    let hex = String(hash, radix: 16)
    let profiles = ProfileFile(url: directory.appendingPathComponent("\(hex).profiles"))
    try profiles.adopt(configuration.appendingPathComponent("shared-\(hex).profiles.json"))
    return profiles
  }

  /// `$XDG_CONFIG_HOME/sociallogin`, else `~/.config/sociallogin`.
  static func configurationDirectory(_ environment: [String: String]) -> URL {
    let base =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
    return base.appendingPathComponent("sociallogin", isDirectory: true)
  }

  /// `<configuration directory>/sessions`.
  static func defaultDirectory(_ environment: [String: String]) -> URL {
    configurationDirectory(environment).appendingPathComponent("sessions", isDirectory: true)
  }
}
