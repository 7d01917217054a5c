/// The Lua scripts of the stores. Each runs atomically on the server and touches only keys of
/// one hash slot. Versions are compared as decimal strings and incremented with `HINCRBY`
/// (64-bit integers in C): Lua numbers are doubles and would round versions above 2^53.
enum RedisScripts {
  /// KEYS[1] session, KEYS[2] its spend claim, KEYS[3] its spend intent; ARGV[1] expected
  /// version or "" for "absent",
  /// ARGV[2] record (sealed for version ARGV[6] + 1), ARGV[3] time to live in ms or "0", ARGV[4]
  /// the store's hint channel ("": publish nothing), ARGV[5] the session's tag, ARGV[6] the
  /// version the record was sealed on top of: the expected version, or for a new record the
  /// tombstone's version ("0" when there is none). Returns {1, new version}, {0, current
  /// version or nil} on a version conflict, or {4, tombstone version} when a new record was
  /// sealed for another version than the one it would get (the caller seals again: a sealed
  /// record names its own version, so no value can be replayed at another). A successful
  /// write ends the spend claim and the intent (the record moved on: whatever was spent is
  /// saved or superseded) and publishes the hint `W<tag>:<version>` — never the record.
  static let save = RedisScript(
    name: "save",
    source: """
      local cur = redis.call('HGET', KEYS[1], 'v')
      if cur then
        if ARGV[1] ~= cur then return {0, cur} end
        redis.call('HINCRBY', KEYS[1], 'v', 1)
      else
        if ARGV[1] ~= '' then return {0, false} end
        local dv = redis.call('HGET', KEYS[1], 'dv') or '0'
        if ARGV[6] ~= dv then return {4, dv} end
        redis.call('HSET', KEYS[1], 'v', dv)
        redis.call('HINCRBY', KEYS[1], 'v', 1)
        redis.call('HDEL', KEYS[1], 'dv', 'dr')
      end
      redis.call('HSET', KEYS[1], 'd', ARGV[2])
      if ARGV[3] ~= '0' then
        redis.call('PEXPIRE', KEYS[1], ARGV[3])
      else
        redis.call('PERSIST', KEYS[1])
      end
      redis.call('DEL', KEYS[2], KEYS[3])
      local nv = redis.call('HGET', KEYS[1], 'v')
      if ARGV[4] ~= '' then
        redis.call('PUBLISH', ARGV[4], 'W' .. ARGV[5] .. ':' .. nv)
      end
      return {1, nv}
      """)

  /// KEYS[1] session, KEYS[2] its spend claim, KEYS[3] its spend intent; ARGV[1] the version
  /// the caller holds, ARGV[2]
  /// the hint channel, ARGV[3] the session's tag, ARGV[4] the tombstone's notice (a
  /// ``RedisDeletionNotice`` sealed for this version). Deletes the record only if it is still
  /// at that version, leaving a tombstone (`dv`, the deleted version, and `dr`, the notice),
  /// ending the spend claim and the intent and publishing the hint `D<tag>:<version>`. Returns 1 when
  /// deleted, 0 when there is no record or it is at another version.
  static let deleteIfVersion = RedisScript(
    name: "delete-if-version",
    source: """
      local cur = redis.call('HGET', KEYS[1], 'v')
      if not cur or cur ~= ARGV[1] then return 0 end
      redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
      redis.call('HSET', KEYS[1], 'dv', cur, 'dr', ARGV[4])
      redis.call('PUBLISH', ARGV[2], 'D' .. ARGV[3] .. ':' .. cur)
      return 1
      """)

  /// KEYS[1] session; ARGV[1] the version read, ARGV[2] the record read, ARGV[3] the record
  /// sealed again (with the ring's current key, for the same version). Replaces the record only
  /// if it is still exactly what was read, without a new version or a hint: nothing changed
  /// but the key that seals it. Returns 1 when replaced.
  static let reseal = RedisScript(
    name: "reseal",
    source: """
      if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
      if redis.call('HGET', KEYS[1], 'd') ~= ARGV[2] then return 0 end
      redis.call('HSET', KEYS[1], 'd', ARGV[3])
      return 1
      """)

  /// KEYS[1] session; ARGV[1] the tombstone version read, ARGV[2] its notice read, ARGV[3] the
  /// notice sealed again. Like ``reseal`` for a tombstone. Returns 1 when replaced.
  static let resealTombstone = RedisScript(
    name: "reseal-tombstone",
    source: """
      if redis.call('HGET', KEYS[1], 'v') then return 0 end
      if redis.call('HGET', KEYS[1], 'dv') ~= ARGV[1] then return 0 end
      if redis.call('HGET', KEYS[1], 'dr') ~= ARGV[2] then return 0 end
      redis.call('HSET', KEYS[1], 'dr', ARGV[3])
      return 1
      """)

  /// KEYS[1] session, KEYS[2] where to set it aside; ARGV[1] the `d` and ARGV[2] the `v` that
  /// were read ("" for none). Moves the record only if it is still what was judged corrupt, and
  /// keeps a well-formed version as the tombstone. Returns 1 when moved.
  static let quarantine = RedisScript(
    name: "quarantine",
    source: """
      local kind = redis.call('TYPE', KEYS[1]).ok
      if kind == 'none' then return 0 end
      if kind ~= 'hash' then
        redis.call('RENAME', KEYS[1], KEYS[2])
        return 1
      end
      local v = redis.call('HGET', KEYS[1], 'v')
      local d = redis.call('HGET', KEYS[1], 'd')
      if (v or '') ~= ARGV[2] or (d or '') ~= ARGV[1] then return 0 end
      redis.call('RENAME', KEYS[1], KEYS[2])
      redis.call('PERSIST', KEYS[2])
      if v and string.match(v, '^%d+$') and #v <= 18 then
        redis.call('HSET', KEYS[1], 'dv', v)
      end
      return 1
      """)

  /// KEYS[1] session, KEYS[2] lease, KEYS[3] spend claim, KEYS[4] spend intent; ARGV[1] the
  /// version the caller holds ("": take the lease whatever the version), ARGV[2] owner token,
  /// ARGV[3] time to live in ms, ARGV[4] this store's claim prefix (`store:`). When the session
  /// holds another version, returns {2, version, record} (someone refreshed it: adopt, nothing
  /// to wait for). When another store's spend claim is alive, returns {3}: that replica
  /// recorded its intent to spend this record's refresh token (``recordIntent``) and has not
  /// saved or released since, though its lease lapsed (a failover that refused its renewals
  /// and its write, a stall); spending the token again would be refused by a rotating
  /// provider. Otherwise takes the lease with `SET NX PX` and returns {1, intent}: the intent a
  /// previous holder left unsettled (killed, or its lease lapsed, between recording it and
  /// saving or releasing), or false; or {0} when another replica holds the lease. The lease is
  /// tried before the claim is read, so a replica waiting for a live leader gets {0} and {3}
  /// means a lapsed lease only (``RedisSessionStore/spendClaimWaits`` counts nothing else).
  static let acquireLease = RedisScript(
    name: "acquire-lease",
    source: """
      local v = redis.call('HGET', KEYS[1], 'v')
      if ARGV[1] ~= '' and v and v ~= ARGV[1] then
        return {2, v, redis.call('HGET', KEYS[1], 'd')}
      end
      if not redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3]) then return {0} end
      local claim = redis.call('GET', KEYS[3])
      if claim and string.sub(claim, 1, #ARGV[4]) ~= ARGV[4] then
        redis.call('DEL', KEYS[2])
        return {3}
      end
      return {1, redis.call('GET', KEYS[4])}
      """)

  /// KEYS[1] lease, KEYS[2] spend claim, KEYS[3] spend intent; ARGV[1] owner token, ARGV[2]
  /// the claim (`store:token`), ARGV[3] its time to live in ms, ARGV[4] the intent
  /// (`<claim>|<digest>|<ms>`), ARGV[5] its time to live in ms. Records, only while this owner
  /// holds the lease, that it is about to spend the refresh token: the claim (which keeps
  /// other stores from spending it while it lives) and the intent (which the next holder reads
  /// when the claim is gone). Returns 1, or 0 when the lease is no longer this owner's: the
  /// token is then not spent.
  static let recordIntent = RedisScript(
    name: "record-intent",
    source: """
      if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
      redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
      redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
      return 1
      """)

  /// KEYS[1] lease, KEYS[2] spend claim; ARGV[1] owner token, ARGV[2] time to live in ms,
  /// ARGV[3] the claim, ARGV[4] its time to live in ms. Extends the lease, and the claim while
  /// it is this owner's, only if this owner still holds the lease. Returns 1 or 0.
  static let renewLease = RedisScript(
    name: "renew-lease",
    source: """
      if redis.call('GET', KEYS[1]) == ARGV[1] then
        if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
        return redis.call('PEXPIRE', KEYS[1], ARGV[2])
      end
      return 0
      """)

  /// KEYS[1] lease, KEYS[2] spend claim, KEYS[3] spend intent; ARGV[1] owner token, ARGV[2]
  /// channel ("": none), ARGV[3] the hint (`R<tag>`), ARGV[4] the claim. Ends the claim and the
  /// intent if they are this owner's (even after the lease lapsed: the owner is done with the
  /// token), deletes the lease only if this owner holds it, and tells waiting replicas when
  /// either ended. Returns 1 when the lease was deleted, else 0.
  static let releaseLease = RedisScript(
    name: "release-lease",
    source: """
      local claimed = redis.call('GET', KEYS[2]) == ARGV[4]
      if claimed then redis.call('DEL', KEYS[2]) end
      local intent = redis.call('GET', KEYS[3])
      if intent and string.sub(intent, 1, #ARGV[4] + 1) == ARGV[4] .. '|' then
        redis.call('DEL', KEYS[3])
      end
      local held = redis.call('GET', KEYS[1]) == ARGV[1]
      if held then redis.call('DEL', KEYS[1]) end
      if (held or claimed) and ARGV[2] ~= '' then redis.call('PUBLISH', ARGV[2], ARGV[3]) end
      if held then return 1 end
      return 0
      """)

  /// KEYS[1] pending login, KEYS[2] its claim; ARGV[1] claim time to live in ms. Takes the
  /// login with GETDEL and marks it claimed. Returns the value, -1 when it is being completed,
  /// or nil.
  static let claimPending = RedisScript(
    name: "claim-pending",
    source: """
      local value = redis.call('GETDEL', KEYS[1])
      if value then
        redis.call('SET', KEYS[2], '1', 'PX', ARGV[1])
        return value
      end
      if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
      return false
      """)

  /// KEYS[1] pending login, KEYS[2] its claim; ARGV[1] value, ARGV[2] remaining ms. Puts a
  /// login whose validation failed back, so the genuine callback can still use it.
  static let unclaimPending = RedisScript(
    name: "unclaim-pending",
    source: """
      redis.call('DEL', KEYS[2])
      if tonumber(ARGV[2]) > 0 then
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX')
      end
      return 1
      """)
}
