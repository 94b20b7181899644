--[[
  gcra ("gc"): generic cell rate algorithm. Emission interval T = window / limit; burst tolerance
  burst * T. State: the theoretical arrival time (TAT) as "<whole ms>:<fraction of a ms>", expiring
  once it is in the past (a missing TAT means a full allowance). Arithmetic is done on `tat - now`
  (small numbers) and the TAT is stored split, because an epoch-ms double has only ~0.2 us of
  precision left, which summed over a burst would refuse the last request of an exact limit.
]]
local function gc_view(burst, interval, tolerance, d)
  local left = math.floor((tolerance - d) / interval + EPSILON)
  if left < 0 then left = 0 end
  if left > burst then left = burst end
  if d <= 0 then return left, 0, 0 end
  local nxt = math.ceil((left + 1) * interval + d - tolerance - EPSILON)
  if nxt < 0 then nxt = 0 end
  return left, math.ceil(d - EPSILON), nxt
end

ALGORITHMS["gc"] = function(key, now, now_us, limit, window, burst, cost)
  local interval = window / limit
  local tolerance = burst * interval
  local ahead = 0 -- tat - now
  local raw = rcall("GET", key)
  if raw then
    local ms, fraction = split2(raw)
    local stored = (ms - now) + fraction
    if stored > 0 then ahead = stored end
  end
  local new_ahead = ahead + cost * interval
  local allowed = new_ahead <= tolerance + EPSILON
  local retry = 0
  if not allowed then
    if cost > burst then retry = -1 else retry = math.ceil(new_ahead - tolerance - EPSILON) end
  end
  local b1, b2, b3 = gc_view(burst, interval, tolerance, ahead)
  local a1, a2, a3 = gc_view(burst, interval, tolerance, new_ahead)
  local value
  if cost > 0 then
    local whole = math.floor(new_ahead)
    value = (now + whole) .. ":" .. fmt_num(new_ahead - whole)
  end
  return allowed, retry, b1, b2, b3, a1, a2, a3, value, ttl_ms(new_ahead)
end
