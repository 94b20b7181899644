--[[
  sliding_window ("sw"): weighted two-window counter over epoch-aligned windows.
  estimate = previous * (window - elapsed) / window + current
  State, expiring when the current window no longer weighs (the end of the next window):
  (window index * 2^10 + previous) * 2^10 + current while both counts are below 2^10, else the
  text "<window index>:<current>:<previous>" (see "Compact states" in the preamble).
]]
local SW_COUNT = 1024 -- 2^10

-- A state's window index, current and previous counts (one reading for the decision and its give-back).
local function sw_decode(raw)
  local packed = tonumber(raw)
  if packed then
    local sc = packed % SW_COUNT
    local rest = (packed - sc) / SW_COUNT
    local sp = rest % SW_COUNT
    return (rest - sp) / SW_COUNT, sc, sp
  end
  return split3(raw)
end

local function sw_encode(w, c, p)
  if c < SW_COUNT and p < SW_COUNT and w < PACK_WINDOWS then return (w * SW_COUNT + p) * SW_COUNT + c end
  return w .. ":" .. c .. ":" .. p
end

--[[
  Time until the estimate is at most `target` (ms, rounded up; 0 when it is already, or nothing is
  counted): within this window as the previous window's weight decays, else in the next one, where
  this window's count `c` becomes the decaying previous. The one formula for a refusal's retry
  (target limit - cost) and for the next unit of quota an answer announces (target limit - left - 1),
  so an answer's RateLimit t and the next refusal's Retry-After agree.
]]
local function sw_wait(target, window, until_end, prev, c)
  if prev * until_end / window + c <= target then return 0 end
  if c <= target then
    return ceil(until_end - (target - c) * window / prev)
  end
  local wait_in_next = window - target * window / c
  if wait_in_next < 0 then wait_in_next = 0 end
  return ceil(until_end + wait_in_next)
end

local function sw_view(limit, window, until_end, prev, c)
  local left = floor(limit - (prev * until_end / window + c))
  if left < 0 then left = 0 end
  local reset, nxt = 0, 0
  if c > 0 then
    reset = until_end + window
  elseif prev > 0 then
    reset = until_end
  end
  -- When one more unit is left; never when the window holds nothing (or could never hold more).
  if left < limit then nxt = sw_wait(limit - left - 1, window, until_end, prev, c) end
  return left, reset, nxt
end

ALGORITHMS["sw"] = function(key, field, now, now_us, limit, window, burst, cost)
  local w = now / window
  w = w - w % 1 -- floor inline: see the preamble, above now_from
  local cur, prev = 0, 0
  local raw = state_of(key, field)
  if raw then
    local sw, sc, sp = sw_decode(raw)
    if sw == w then
      cur, prev = sc, sp
    elseif sw == w - 1 then
      prev = sc
    end
  end
  local until_end = window - (now - w * window)
  local estimate = prev * until_end / window + cur
  local allowed = estimate + cost <= limit
  local retry = 0
  if not allowed then
    if cost > limit then
      retry = -1
    else
      retry = sw_wait(limit - cost, window, until_end, prev, cur)
    end
  end
  local b1, b2, b3 = sw_view(limit, window, until_end, prev, cur)
  local a1, a2, a3 = sw_view(limit, window, until_end, prev, cur + cost)
  local value
  if cost > 0 then
    value = sw_encode(w, cur + cost, prev)
  end
  return allowed, retry, b1, b2, b3, a1, a2, a3, value, ttl_ms(until_end + window)
end
