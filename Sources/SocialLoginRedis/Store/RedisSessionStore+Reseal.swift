import SocialLogin

extension RedisSessionStore {
  /// What ``reseal(acceptingUnsealed:)`` did.
  public struct ResealReport: Sendable, Equatable {
    /// Records, tombstones and account links (each link and index entry) sealed again with the
    /// ring's sealing key.
    public var resealed = 0
    /// Records, tombstones and account links already sealed with it.
    public var current = 0
    /// Values that changed while they were being resealed (their writer sealed them anew).
    public var skipped = 0
    /// Values whose seal did not open (an unknown key, tampering): left untouched.
    public var unopenable = 0
    /// Tombstones not visited: on a Redis Cluster only the listed records are resealed (a
    /// tombstone is re-sealed when its session is next written or deleted).
    public var tombstonesNotVisited = false
    /// Account links not visited: on a Redis Cluster they cannot be listed, so links sealed
    /// with an old key keep needing it until they are unlinked and linked again.
    public var linksNotVisited = false
  }

  /// Seals every record, tombstone and account link that is not sealed with the ring's sealing key (an older
  /// key of the ring, or no key when `acceptingUnsealed`) again with it, at the same version
  /// and without a hint: after a key rotation, run it once, then drop the old key from every
  /// replica's ring. `sociallogin store reseal` runs it.
  ///
  /// - Parameter acceptingUnsealed: Also seal values written by an unsealed store (migrating
  ///   from `.unsealed`). Off by default: a store with a ring never accepts an unsealed value,
  ///   which anyone who can write to the Redis could have planted.
  /// - Throws: `configuration` when this store is `.unsealed`; `storageFailed` when Redis fails.
  public func reseal(acceptingUnsealed: Bool = false) async throws -> ResealReport {
    guard case .keyRing(let ring) = sealing else {
      throw AuthError(
        .configuration, "Redis session store: an unsealed store cannot reseal; give it a key ring.")
    }
    var report = ResealReport()
    var tags = Set<String>()
    do {
      let providers = try await client.send(["SMEMBERS", keys.providers]).elements ?? []
      for provider in providers.compactMap(\.string) {
        let members = try await client.send(
          ["SMEMBERS", keys.index(provider: ProviderID(rawValue: provider))])
        tags.formUnion((members.elements ?? []).compactMap(\.string))
      }
      if client.isCluster {
        report.tombstonesNotVisited = true
        report.linksNotVisited = true
      } else {
        tags.formUnion(try await scanSessionTags())
      }
    } catch {
      throw Self.storeError(error, "listing sessions to reseal")
    }
    for tag in tags.sorted() {
      try await reseal(tag: tag, ring: ring, acceptingUnsealed: acceptingUnsealed, &report)
    }
    if !client.isCluster {
      try await resealLinks(ring: ring, acceptingUnsealed: acceptingUnsealed, &report)
    }
    return report
  }

  /// The tags of every session hash under the prefix (`SCAN`, one server).
  private func scanSessionTags() async throws -> Set<String> {
    var tags = Set<String>()
    var cursor = "0"
    let pattern = "\(options.keyPrefix):{*}:s"
    repeat {
      let reply = try await client.send(["SCAN", cursor, "MATCH", pattern, "COUNT", "500"])
      guard let parts = reply.elements, parts.count == 2, let next = parts[0].string else {
        throw AuthError(.storageFailed, "Redis session store: unexpected reply to SCAN.")
      }
      cursor = next
      for name in (parts[1].elements ?? []).compactMap(\.string) {
        let inner = name.dropFirst(options.keyPrefix.count + 2).dropLast(3)
        if inner.count == RedisKeys.tagLength, keys.session(tag: String(inner)) == name {
          tags.insert(String(inner))
        }
      }
    } while cursor != "0"
    return tags
  }

  private func reseal(
    tag: String, ring: SealingKeyRing, acceptingUnsealed: Bool, _ report: inout ResealReport
  ) async throws {
    let sessionKey = keys.session(tag: tag)
    let fields: [RESPValue]
    do {
      fields = try await client.send(["HMGET", sessionKey, "v", "d", "dv", "dr"]).elements ?? []
    } catch {
      throw Self.storeError(error, "reading a session to reseal")
    }
    guard fields.count == 4 else { return }
    let isRecord = !fields[0].isNull
    guard let versionBytes = (isRecord ? fields[0] : fields[2]).bytes,
      let version = RedisStoreMessage.decimal(versionBytes[...]),
      let value = (isRecord ? fields[1] : fields[3]).bytes
    else { return }
    let context =
      isRecord
      ? keys.recordContext(tag: tag, version: version)
      : keys.tombstoneContext(tag: tag, version: version)
    let plaintext: [UInt8]
    if acceptingUnsealed, !SealingKeyRing.isSealed(value) {
      plaintext = value
    } else {
      do {
        let opened = try ring.open(value, context: context)
        guard opened.needsReseal else {
          report.current += 1
          return
        }
        plaintext = opened.bytes
      } catch {
        report.unopenable += 1
        return
      }
    }
    let sealed = ring.seal(plaintext, context: context)
    let reply: RESPValue
    do {
      reply = try await evaluate(
        isRecord ? RedisScripts.reseal : RedisScripts.resealTombstone, keys: [sessionKey],
        arguments: [versionBytes, value, sealed])
    } catch {
      throw Self.storeError(error, "resealing a session")
    }
    if reply.integer == 1 { report.resealed += 1 } else { report.skipped += 1 }
  }
}
