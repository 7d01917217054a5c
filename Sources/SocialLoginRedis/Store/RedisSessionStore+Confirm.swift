import SocialLogin

extension RedisSessionStore {
  /// Reads what Redis holds for `tag` and opens it (one `HMGET`): the written record, or the
  /// deletion its tombstone's sealed notice names, or `nil` when there is neither, when Redis
  /// cannot be reached, or when nothing opens. What ``RedisChangeConfirmer`` reports is only
  /// ever what this returned.
  func confirm(tag: String) async -> SessionStoreChange? {
    let reply: RESPValue
    do {
      reply = try await client.send(["HMGET", keys.session(tag: tag), "v", "d", "dv", "dr"])
    } catch {
      return nil
    }
    guard let fields = reply.elements, fields.count == 4 else { return nil }
    if !fields[0].isNull {
      guard case .found(let session) = try? decode(version: fields[0], data: fields[1], tag: tag)
      else { return nil }
      return .written(session)
    }
    guard let version = fields[2].bytes.flatMap({ RedisStoreMessage.decimal($0[...]) }),
      let sealed = fields[3].bytes,
      let notice = openNotice(sealed, version: version, tag: tag)
    else { return nil }
    return .deleted(notice.key, version: version, reason: notice.reason)
  }
}
