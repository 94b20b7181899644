--[[
  concurrency ("cc"): at most `limit` requests in flight per subject. Twin of
  lib/limiter/algorithms/concurrency.ts, which states the contract.
  State: a sorted set of leases per rule and subject, member = the request's lease id (given by the
  caller, one per request), score = the lease's expiry (epoch ms: taken at + window_ms, the lease
  length). A lease with expiry <= now is over: it is not counted, and is dropped when the set is
  next written. release.lua removes a lease when its request is over; expiry only frees the slots
  of requests whose release never came (a lost instance). The key expires with its last lease.
  Writes through COMMITS["cc"]; never reads the subject key (no penalty: the schema refuses blockMs).
  A refused request gives no useful "when": a slot frees when some request ends, so retry is 1 s
  (the 429's Retry-After: 1); reset and next are 0 (nothing to wait for once admitted).
]]
ALGORITHMS["cc"] = function(key, field, now, now_us, limit, window, burst, cost)
  local used = rcall("ZCOUNT", key, "(" .. fmt_int(now), "+inf")
  local allowed = used + cost <= limit
  local retry = 0
  if not allowed then
    if cost > limit then retry = -1 else retry = 1000 end
  end
  local b_left, a_left = limit - used, limit - used - cost
  if b_left < 0 then b_left = 0 end
  if a_left < 0 then a_left = 0 end
  return allowed, retry, b_left, 0, 0, a_left, 0, 0, nil, 0
end

COMMITS["cc"] = function(key, now, now_us, window, cost, ttl_floor, lease)
  rcall("ZREMRANGEBYSCORE", key, "-inf", fmt_int(now))
  rcall("ZADD", key, fmt_int(now + window), lease)
  -- The key lives as long as its longest lease (leases of an edited rule may be longer or shorter).
  local last = rcall("ZRANGE", key, -1, -1, "WITHSCORES")
  rcall("PEXPIRE", key, math.max(ttl_ms(tonumber(last[2]) - now), ttl_floor))
end
