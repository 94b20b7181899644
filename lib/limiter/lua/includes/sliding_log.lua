--[[
  sliding_log ("sl"): exact. A sorted set of the admitted requests in the last `window` ms,
  score = time (ms), member = a unique integer (microseconds, bumped on collision) with ":<cost>"
  appended only when cost > 1, so the usual member is listpack-encoded as a bare integer.
  Costs CPU and memory in proportion to the requests inside one window.
  The key expires one window after its newest entry. Writes through COMMITS["sl"].
]]
local function entry_cost(member)
  local sep = string.find(member, ":", 1, true)
  if sep then return tonumber(string.sub(member, sep + 1)) end
  return 1
end

ALGORITHMS["sl"] = function(key, field, now, now_us, limit, window, burst, cost)
  local entries = rcall("ZRANGE", key, "(" .. (now - window), "+inf", "BYSCORE", "WITHSCORES")
  local used = 0
  for i = 1, #entries, 2 do used = used + entry_cost(entries[i]) end
  local n = #entries / 2
  local oldest, newest
  if n > 0 then
    oldest = tonumber(entries[2])
    newest = tonumber(entries[#entries])
  end
  local allowed = used + cost <= limit
  local retry = 0
  if not allowed then
    if cost > limit then
      retry = -1
    else
      local freed = 0
      for i = 1, #entries, 2 do
        freed = freed + entry_cost(entries[i])
        if used - freed + cost <= limit then
          retry = tonumber(entries[i + 1]) + window - now
          break
        end
      end
    end
  end
  local b_left = limit - used
  if b_left < 0 then b_left = 0 end
  local b_reset, b_next = 0, 0
  if newest then b_reset = newest + window - now end
  if oldest then b_next = oldest + window - now end
  if cost == 0 then
    return allowed, retry, b_left, b_reset, b_next, b_left, b_reset, b_next, nil, 0
  end
  local a_left = limit - used - cost
  if a_left < 0 then a_left = 0 end
  local a_next = window
  if oldest then a_next = oldest + window - now end
  return allowed, retry, b_left, b_reset, b_next, a_left, window, a_next, nil, 0
end

COMMITS["sl"] = function(key, now, now_us, window, cost, ttl_floor)
  rcall("ZREMRANGEBYSCORE", key, "-inf", now - window)
  local id = now_us
  local suffix = ""
  if cost > 1 then suffix = ":" .. cost end
  local member = format("%.0f", id) .. suffix
  while rcall("ZSCORE", key, member) do
    id = id + 1
    member = format("%.0f", id) .. suffix
  end
  rcall("ZADD", key, now, member)
  rcall("PEXPIRE", key, math.max(ttl_ms(window), ttl_floor))
end
