import Foundation
import Testing

@testable import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh directory under the system temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("sociallogin-store-\(UUID().uuidString)", isDirectory: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try await body(url)
}

/// The permission bits (`st_mode & 0o777`) of `path`, or `nil` when it does not exist.
func permissions(_ path: String) -> mode_t? {
  var info = stat()
  guard lstat(path, &info) == 0 else { return nil }
  return info.st_mode & 0o777
}

/// The names in `directory`, sorted.
func listing(_ directory: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}

/// The path of `key`'s session file in `directory`.
func sessionFile(_ directory: URL, _ key: SessionKey) throws -> URL {
  directory.appendingPathComponent(FileSessionStore.stem(for: key) + ".json")
}

/// A credential with every field set, including sub-microsecond dates.
func sampleCredential(_ token: String = "access-token-value") -> Credential {
  Credential(
    accessToken: Secret(token),
    refreshToken: "refresh-token-value",
    idToken: "id.token.value",
    tokenSecret: "token-secret-value",
    tokenType: "Bearer",
    scopes: ["openid", "profile"],
    expiresAt: Date(timeIntervalSinceReferenceDate: 812_345_678.123_456_789),
    issuedAt: Date(),
    serverTimeOffset: -1.25)
}

/// A session with an identity carrying nested raw claims.
func sampleSession(
  _ subject: String = "42", provider: ProviderID = .twitter, token: String = "access-token-value"
) -> StoredSession {
  let identity = Identity(
    provider: provider, subject: subject, name: "Ada", email: "ada@example.test",
    emailVerified: true, pictureURL: URL(string: "https://example.test/a.png"),
    rawClaims: ["sub": .string(subject), "n": 1.5, "list": [true, nil, "x"]])
  return StoredSession(
    key: SessionKey(provider: provider, subject: subject),
    credential: sampleCredential(token), identity: identity)
}

/// Yields until `condition` holds (no wall-clock sleeps for correctness). Gives up, recording
/// an issue, when the task is cancelled (a suite's time limit) or after a generous bound, so a
/// broken lock fails the test instead of hanging the run.
func waitUntil(
  _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async {
  var spins = 0
  while !condition() {
    spins += 1
    if Task.isCancelled || spins > 5_000_000 {
      Issue.record("condition never became true", sourceLocation: sourceLocation)
      return
    }
    await Task.yield()
  }
}

/// Which store a shared test runs against.
enum StoreKind: String, CustomTestStringConvertible, CaseIterable, Sendable {
  case memory
  case file

  var testDescription: String { rawValue }

  /// Runs `body` with a fresh store of this kind.
  func withStore<T>(_ body: (any SessionStore) async throws -> T) async throws -> T {
    switch self {
    case .memory: return try await body(InMemorySessionStore())
    case .file:
      return try await withTemporaryDirectory { directory in
        try await body(try FileSessionStore(directory: directory))
      }
    }
  }
}
