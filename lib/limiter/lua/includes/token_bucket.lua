--[[
  token_bucket ("tb"): capacity `burst`, `limit` tokens refill per `window` ms, fractional refill.
  State: a string "<tokens>:<updated at ms>", expiring when the bucket would be full again
  (a missing bucket is a full one).
]]
local function tb_view(burst, rate, t)
  local whole = math.floor(t + EPSILON)
  local left = whole
  if left < 0 then left = 0 end
  if t >= burst then return left, 0, 0 end
  return left, math.ceil((burst - t) / rate), math.ceil((whole + 1 - t) / rate)
end

ALGORITHMS["tb"] = function(key, now, now_us, limit, window, burst, cost)
  local rate = limit / window
  local tokens = burst
  local raw = rcall("GET", key)
  if raw then
    local stored, at = split2(raw)
    local elapsed = now - at
    if elapsed < 0 then elapsed = 0 end
    tokens = math.min(burst, stored + elapsed * rate)
  end
  local allowed = tokens + EPSILON >= cost
  local retry = 0
  if not allowed then
    if cost > burst then retry = -1 else retry = math.ceil((cost - tokens - EPSILON) / rate) end
  end
  local left = tokens - cost
  local b1, b2, b3 = tb_view(burst, rate, tokens)
  local a1, a2, a3 = tb_view(burst, rate, left)
  local value
  if cost > 0 then value = fmt_num(left) .. ":" .. now end
  return allowed, retry, b1, b2, b3, a1, a2, a3, value, ttl_ms((burst - left) / rate)
end
