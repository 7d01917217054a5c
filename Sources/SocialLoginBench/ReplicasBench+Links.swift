import Foundation
import SocialLogin
import SocialLoginRedis

extension ReplicasBench {
  /// `redis_account_link_bytes`: what account links cost in Redis. 250 accounts (UUIDs) each
  /// link four identities with their providers' real id shapes (LINE `U` + 32 hex, a Facebook
  /// app-scoped id, a Firebase uid, an X id), sealed as the store seals them; then `MEMORY
  /// USAGE … SAMPLES 0` of every link and account index, divided by the number of links (the
  /// goal: one small record per link), and `used_memory` growth per link beside it.
  static func accountLinkBytes(prefix: String, accounts: Int = 250) async throws -> Figure {
    let prefix = prefix + "-links"
    let store = try await RedisSessionStore.connect(
      url: url, sealing: BenchSealing.sealing, options: RedisSessionStore.Options(keyPrefix: prefix)
    )
    defer { store.client.close() }
    let before = try await usedMemory(store.client)
    for index in 0..<accounts {
      let account = try AccountID(UUID().uuidString.lowercased())
      let hex = String(format: "%08x", index)
      let keys = [
        SessionKey(provider: .line, subject: "U" + String(repeating: hex, count: 4)),
        SessionKey(provider: .facebook, subject: String(10_000_000_000_000_000 + index)),
        SessionKey(provider: .firebase, subject: "fbuid" + String(repeating: hex, count: 3)),
        SessionKey(provider: .twitter, subject: String(1_800_000_000_000_000_000 + index)),
      ]
      for key in keys { try await store.link(key, to: account) }
    }
    let after = try await usedMemory(store.client)
    let links = accounts * 4
    var linkBytes = 0
    var indexBytes = 0
    for (pattern, isIndex) in [(":link:*", false), (":account:*", true)] {
      let names = try await store.client.send(RedisCommand(["KEYS", prefix + pattern]))
      for name in (names.elements ?? []).compactMap(\.string) {
        let usage = try await store.client.send(
          RedisCommand(["MEMORY", "USAGE", name, "SAMPLES", "0"]))
        if isIndex {
          indexBytes += Int(usage.integer ?? 0)
        } else {
          linkBytes += Int(usage.integer ?? 0)
        }
      }
    }
    // Leave the user's Redis as it was.
    let keys = try await store.client.send(RedisCommand(["KEYS", prefix + ":*"]))
    for chunk in (keys.elements ?? []).compactMap(\.string).chunked(500) {
      _ = try await store.client.send(RedisCommand(["UNLINK"] + chunk))
    }
    return Figure(
      "redis_account_link_bytes",
      [
        ("accounts", String(accounts)), ("links", String(links)),
        ("sealed", store.sealing.isSealing ? "yes" : "no"),
        ("bytes_per_link", fmt(Double(linkBytes + indexBytes) / Double(links))),
        ("link_key_bytes_per_link", fmt(Double(linkBytes) / Double(links))),
        ("index_bytes_per_link", fmt(Double(indexBytes) / Double(links))),
        ("used_memory_per_link", fmt(Double(after - before) / Double(links))),
      ])
  }
}
