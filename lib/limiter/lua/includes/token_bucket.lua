--[[
  token_bucket ("tb"): capacity `burst`, `limit` tokens refill per `window` ms, fractional refill.
  State: a string "<tokens>:<updated at ms>", expiring when the bucket would be full again
  (a missing bucket is a full one).
]]
ALGORITHMS["tb"] = function(key, now, now_us, limit, window, burst, cost)
  local rate = limit / window
  local tokens = burst
  local raw = rcall("GET", key)
  if raw then
    local s = read_numbers(raw)
    local elapsed = now - s[2]
    if elapsed < 0 then elapsed = 0 end
    tokens = math.min(burst, s[1] + elapsed * rate)
  end
  local function view(t)
    local whole = math.floor(t + EPSILON)
    local left = whole
    if left < 0 then left = 0 end
    local reset, nxt = 0, 0
    if t < burst then
      reset = math.ceil((burst - t) / rate)
      nxt = math.ceil((whole + 1 - t) / rate)
    end
    return { remaining = left, reset = reset, next = nxt }
  end
  local r = { allowed = tokens + EPSILON >= cost, retry = 0 }
  r.before = view(tokens)
  r.after = view(tokens - cost)
  if not r.allowed then
    if cost > burst then r.retry = -1 else r.retry = math.ceil((cost - tokens - EPSILON) / rate) end
  end
  if cost > 0 then
    local left = tokens - cost
    r.commit = function()
      rcall("SET", key, fmt_num(left) .. ":" .. now, "PX", ttl_ms((burst - left) / rate))
    end
  end
  return r
end
