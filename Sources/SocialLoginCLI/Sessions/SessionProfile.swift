import Foundation
import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a session was made, remembered in the store's directory so that `token`, `status` and
/// `logout` need nothing but the session's selection, and a later `login` starts from it.
///
/// It holds the provider's configuration and endpoints and the *name* of the environment
/// variable that holds the client secret — never a secret.
struct SessionProfile: Codable, Sendable, Hashable {
  /// Which provider actor to build.
  var kind: ProviderKind
  /// The client id (app id, channel id): public, so remembered as is.
  var clientID: String?
  /// The environment variable that holds the client secret, if the client has one.
  var clientSecretVariable: String?
  /// Whether the client is the emulator's default app (its public test secret is a constant
  /// of the emulator module, so nothing needs remembering).
  var usesEmulatorApp: Bool = false
  /// The OpenID Connect issuer (`oidc` only).
  var issuer: URL?
  /// Scopes requested at login; empty means the provider's default.
  var scopes: [String] = []
  /// X's legacy OAuth 1.0a flow instead of OAuth 2.0.
  var oauth1: Bool = false
  /// Endpoints pointed elsewhere (`--endpoint NAME=URL`), by the provider's endpoint names.
  var endpoints: [String: URL] = [:]
  /// The emulator the session was made against (`HOST:PORT`), if any.
  var emulator: String?
  /// The fixed loopback redirect port, when one was used.
  var redirectPort: UInt16?
  /// The Firebase tenant (`firebase` only, multi-tenant projects): the refreshed session and
  /// its ID tokens belong to it.
  var tenantID: String?
  /// Google: the Workspace domains admitted (`--hosted-domain`), enforced on ID tokens.
  var hostedDomains: [String]?
  /// Google: the Android and iOS client ids accepted in `azp`/`aud` (`--app-client-id`).
  var appClientIDs: [String]?
  /// Apple: the team id (the client secret's `iss`).
  var teamID: String?
  /// Apple: the `.p8` key's id.
  var keyID: String?
  /// Apple: where the `.p8` key is read from (a path, never the key).
  var privateKeyFile: String?
  /// A described provider's own id of the app where it differs from the client id (Kakao's
  /// numeric app id, which proves an access token is this app's).
  var appID: String?
  /// A described provider's parameters (Microsoft's `tenant`), by name.
  var parameters: [String: String]?
  /// A description loaded with `--provider-file`, kept whole: the session's tokens go only
  /// where the description it was made with says, whatever happens to the file later.
  var providerDescription: ProviderDescription?
  /// When this profile was last written.
  var updatedAt: Date = Date()

  init(kind: ProviderKind) { self.kind = kind }
}

/// A file of ``SessionProfile``s keyed by session (`provider:subject`), kept inside the store's
/// private `0700` directory with the file store's own protections (``PrivateFiles``): read
/// with `O_NOFOLLOW`, a regular file owned by this user with mode `0600`, written atomically,
/// and read-modify-written under an exclusive `flock`, so two logins at once do not lose each
/// other's profile.
struct ProfileFile: Sendable {
  /// The name of the profile file inside a store directory. Not `*.json`: the store reads
  /// those as sessions.
  static let fileName = "cli.profiles"
  /// The largest profile file read (the session store's own limit).
  static let maximumSize = FileSessionStore.maximumFileSize

  /// The file.
  let url: URL

  private struct Contents: Codable {
    var format: Int = 1
    var profiles: [String: SessionProfile] = [:]
  }

  /// The profile file of a store directory: `<directory>/cli.profiles`.
  init(insideStoreDirectory directory: URL) {
    url = directory.standardizedFileURL.appendingPathComponent(Self.fileName)
  }

  /// A profile file at `url`, in a directory prepared with ``PrivateFiles/prepareDirectory(_:)``.
  init(url: URL) { self.url = url }

  /// Where earlier versions kept the profiles of a store directory:
  /// `<parent>/<directory name>.profiles.json`, beside the directory.
  static func legacyFile(besideStoreDirectory directory: URL) -> URL {
    let standardized = directory.standardizedFileURL
    let name = standardized.lastPathComponent.isEmpty ? "sessions" : standardized.lastPathComponent
    return standardized.deletingLastPathComponent().appendingPathComponent(
      "\(name).profiles.json")
  }

  /// Moves a profile file an earlier version kept at `legacy` into this one's place, unless
  /// this one already exists. The old file must be a regular file of this user (a symbolic
  /// link is refused, not followed).
  func adopt(_ legacy: URL) throws {
    // `attributesOfItem` does not follow a symbolic link: one planted there is refused below.
    guard (try? FileManager.default.attributesOfItem(atPath: legacy.path)) != nil else { return }
    _ = try PrivateFiles.withLock(url.path + ".lock") {
      try PrivateFiles.adopt(legacy.path, as: url.path, limit: Self.maximumSize)
    }
  }

  /// Every remembered profile, by session key description.
  func load() throws -> [String: SessionProfile] {
    try read().profiles
  }

  /// The profile of `key`, if remembered.
  func profile(for key: SessionKey) throws -> SessionProfile? {
    try load()[key.description]
  }

  /// The most recently written profile of `kind`: what a new `login` starts from.
  func latest(of kind: ProviderKind) throws -> SessionProfile? {
    try load().values.filter { $0.kind == kind }.max { $0.updatedAt < $1.updatedAt }
  }

  /// Remembers `profile` for `key`.
  func save(_ profile: SessionProfile, for key: SessionKey) throws {
    try update { $0[key.description] = profile }
  }

  /// Forgets the profile of `key`.
  func remove(_ key: SessionKey) throws {
    guard try PrivateFiles.read(url.path, limit: Self.maximumSize) != nil else { return }
    try update { $0[key.description] = nil }
  }

  private func read() throws -> Contents {
    guard let data = try PrivateFiles.read(url.path, limit: Self.maximumSize) else {
      return Contents()
    }
    do {
      let contents = try JSONDecoder.profiles.decode(Contents.self, from: data)
      guard contents.format == 1 else {
        throw AuthError(
          .storageCorrupt, "The profile file \(url.path) has format \(contents.format), not 1.")
      }
      return contents
    } catch let error as AuthError {
      throw error
    } catch {
      throw AuthError(
        .storageCorrupt,
        "The profile file \(url.path) cannot be read; delete it and sign in "
          + "again.", underlying: error)
    }
  }

  private func update(_ change: (inout [String: SessionProfile]) -> Void) throws {
    try PrivateFiles.withLock(url.path + ".lock") {
      var contents = try read()
      change(&contents.profiles)
      try PrivateFiles.write(try JSONEncoder.profiles.encode(contents), to: url.path)
    }
  }
}

extension JSONEncoder {
  fileprivate static var profiles: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }
}

extension JSONDecoder {
  fileprivate static var profiles: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
