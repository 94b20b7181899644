--[[
  gcra ("gc"): generic cell rate algorithm. Emission interval T = window / limit; burst tolerance
  burst * T. State: the theoretical arrival time (TAT) as "<whole ms>:<fraction of a ms>", expiring
  once it is in the past (a missing TAT means a full allowance). Arithmetic is done on `tat - now`
  (small numbers) and the TAT is stored split, because an epoch-ms double has only ~0.2 us of
  precision left, which summed over a burst would refuse the last request of an exact limit.
]]
ALGORITHMS["gc"] = function(key, now, now_us, limit, window, burst, cost)
  local interval = window / limit
  local tolerance = burst * interval
  local ahead = 0 -- tat - now
  local raw = rcall("GET", key)
  if raw then
    local s = read_numbers(raw)
    local stored = (s[1] - now) + s[2]
    if stored > 0 then ahead = stored end
  end
  local new_ahead = ahead + cost * interval
  local function view(d)
    local left = math.floor((tolerance - d) / interval + EPSILON)
    if left < 0 then left = 0 end
    if left > burst then left = burst end
    local reset, nxt = 0, 0
    if d > 0 then
      reset = math.ceil(d - EPSILON)
      nxt = math.ceil((left + 1) * interval + d - tolerance - EPSILON)
      if nxt < 0 then nxt = 0 end
    end
    return { remaining = left, reset = reset, next = nxt }
  end
  local r = { allowed = new_ahead <= tolerance + EPSILON, retry = 0 }
  r.before = view(ahead)
  r.after = view(new_ahead)
  if not r.allowed then
    if cost > burst then r.retry = -1 else r.retry = math.ceil(new_ahead - tolerance - EPSILON) end
  end
  if cost > 0 then
    r.commit = function()
      local whole = math.floor(new_ahead)
      rcall("SET", key, (now + whole) .. ":" .. fmt_num(new_ahead - whole), "PX", ttl_ms(new_ahead))
    end
  end
  return r
end
