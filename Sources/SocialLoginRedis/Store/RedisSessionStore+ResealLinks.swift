import SocialLogin

extension RedisSessionStore {
  /// Reseals every account link and index entry under the prefix (one server: `SCAN`), each
  /// only if unchanged since it was read, counting them in `report` like records.
  func resealLinks(
    ring: SealingKeyRing, acceptingUnsealed: Bool, _ report: inout ResealReport
  ) async throws {
    let tagged = "\(options.keyPrefix):link:{"
    for name in try await scan("\(options.keyPrefix):link:{*}") {
      let tag = String(name.dropFirst(tagged.count).dropLast())
      guard tag.count == RedisKeys.tagLength, keys.link(tag: tag) == name else { continue }
      let value: [UInt8]?
      do {
        value = try await client.send(RedisCommand(["GET", name])).bytes
      } catch {
        throw Self.storeError(error, "reading a link to reseal")
      }
      guard let value else { continue }
      guard
        let sealed = Self.resealed(
          value, ring: ring, context: keys.linkContext(tag: tag),
          acceptingUnsealed: acceptingUnsealed, &report)
      else { continue }
      try await replace(
        RedisScripts.replaceIfValue, key: name, arguments: [value, sealed], &report)
    }
    let indexed = "\(options.keyPrefix):account:{"
    for name in try await scan("\(options.keyPrefix):account:{*}") {
      let accountTag = String(name.dropFirst(indexed.count).dropLast())
      guard accountTag.count == RedisKeys.tagLength, keys.account(tag: accountTag) == name
      else { continue }
      let reply: RESPValue
      do {
        reply = try await client.send(RedisCommand(["HGETALL", name]))
      } catch {
        throw Self.storeError(error, "reading an account index to reseal")
      }
      for (field, value) in Self.pairs(reply) {
        let context = keys.accountEntryContext(
          accountTag: accountTag, field: String(decoding: field, as: UTF8.self))
        guard
          let sealed = Self.resealed(
            value, ring: ring, context: context, acceptingUnsealed: acceptingUnsealed, &report)
        else { continue }
        try await replace(
          RedisScripts.replaceFieldIfValue, key: name, arguments: [field, value, sealed], &report)
      }
    }
  }

  /// `value` sealed with the ring's sealing key, or `nil` (counted) when it already is or does
  /// not open.
  static func resealed(
    _ value: [UInt8], ring: SealingKeyRing, context: [UInt8], acceptingUnsealed: Bool,
    _ report: inout ResealReport
  ) -> [UInt8]? {
    if acceptingUnsealed, !SealingKeyRing.isSealed(value) {
      return ring.seal(value, context: context)
    }
    do {
      let opened = try ring.open(value, context: context)
      guard opened.needsReseal else {
        report.current += 1
        return nil
      }
      return ring.seal(opened.bytes, context: context)
    } catch {
      report.unopenable += 1
      return nil
    }
  }

  private func replace(
    _ script: RedisScript, key: String, arguments: [[UInt8]], _ report: inout ResealReport
  ) async throws {
    let reply: RESPValue
    do {
      reply = try await client.evaluate(script, keys: [key], arguments: arguments)
    } catch {
      throw Self.storeError(error, "resealing an account link")
    }
    if reply.integer == 1 { report.resealed += 1 } else { report.skipped += 1 }
  }

  /// Every key name matching `pattern` (`SCAN`, one server).
  private func scan(_ pattern: String) async throws -> [String] {
    var names: [String] = []
    var cursor = "0"
    do {
      repeat {
        let reply = try await client.send(["SCAN", cursor, "MATCH", pattern, "COUNT", "500"])
        guard let parts = reply.elements, parts.count == 2, let next = parts[0].string else {
          throw AuthError(.storageFailed, "Redis session store: unexpected reply to SCAN.")
        }
        cursor = next
        names += (parts[1].elements ?? []).compactMap(\.string)
      } while cursor != "0"
    } catch {
      throw Self.storeError(error, "listing account links to reseal")
    }
    return Array(Set(names)).sorted()
  }
}
