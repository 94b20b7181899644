--[[
  sliding_log ("sl"): exact. A sorted set of the admitted requests in the last `window` ms,
  score = time (ms), member = a unique integer (microseconds, bumped on collision) with ":<cost>"
  appended only when cost > 1, so the usual member is listpack-encoded as a bare integer.
  Costs CPU and memory in proportion to the requests inside one window.
  The key expires one window after its newest entry.
]]
local function entry_cost(member)
  local sep = string.find(member, ":", 1, true)
  if sep then return tonumber(string.sub(member, sep + 1)) end
  return 1
end

ALGORITHMS["sl"] = function(key, now, now_us, limit, window, burst, cost)
  local entries = rcall("ZRANGE", key, "(" .. (now - window), "+inf", "BYSCORE", "WITHSCORES")
  local used = 0
  local costs, times = {}, {}
  for i = 1, #entries, 2 do
    local c = entry_cost(entries[i])
    costs[#costs + 1] = c
    times[#times + 1] = tonumber(entries[i + 1])
    used = used + c
  end
  local n = #times
  local function view(u, newest, oldest)
    local left = limit - u
    if left < 0 then left = 0 end
    local reset, nxt = 0, 0
    if newest then reset = newest + window - now end
    if oldest then nxt = oldest + window - now end
    return { remaining = left, reset = reset, next = nxt }
  end
  local r = { allowed = used + cost <= limit, retry = 0 }
  r.before = view(used, times[n], times[1])
  if cost > 0 then r.after = view(used + cost, now, times[1] or now) else r.after = r.before end
  if not r.allowed then
    if cost > limit then
      r.retry = -1
    else
      local freed = 0
      for i = 1, n do
        freed = freed + costs[i]
        if used - freed + cost <= limit then
          r.retry = times[i] + window - now
          break
        end
      end
    end
  end
  if cost > 0 then
    r.commit = function()
      rcall("ZREMRANGEBYSCORE", key, "-inf", now - window)
      local id = now_us
      local suffix = ""
      if cost > 1 then suffix = ":" .. cost end
      local member = string.format("%.0f", id) .. suffix
      while rcall("ZSCORE", key, member) do
        id = id + 1
        member = string.format("%.0f", id) .. suffix
      end
      rcall("ZADD", key, now, member)
      rcall("PEXPIRE", key, ttl_ms(window))
    end
  end
  return r
end
