--[[
  sliding_window ("sw"): weighted two-window counter over epoch-aligned windows.
  estimate = previous * (window - elapsed) / window + current
  State, expiring when the current window no longer weighs (the end of the next window):
  (window index * 2^10 + previous) * 2^10 + current while both counts are below 2^10, else the
  text "<window index>:<current>:<previous>" (see "Compact states" in the preamble).
]]
local SW_COUNT = 1024 -- 2^10
local function sw_view(limit, window, until_end, prev, c)
  local left = floor(limit - (prev * until_end / window + c))
  if left < 0 then left = 0 end
  local reset, nxt = 0, 0
  if c > 0 then
    reset = until_end + window
  elseif prev > 0 then
    reset = until_end
  end
  if prev > 0 then
    nxt = min(ceil(window / prev), until_end)
  elseif c > 0 then
    nxt = until_end
  end
  return left, reset, nxt
end

ALGORITHMS["sw"] = function(key, field, now, now_us, limit, window, burst, cost)
  local w = now / window
  w = w - w % 1 -- floor inline: see the preamble, above now_from
  local cur, prev = 0, 0
  local raw = state_of(key, field)
  if raw then
    local sw, sc, sp
    local packed = tonumber(raw)
    if packed then
      sc = packed % SW_COUNT
      local rest = (packed - sc) / SW_COUNT
      sp = rest % SW_COUNT
      sw = (rest - sp) / SW_COUNT
    else
      sw, sc, sp = split3(raw)
    end
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
    elseif limit - cur - cost >= 0 then
      -- Within this window, once the previous window's weight has decayed enough.
      retry = ceil(until_end - (limit - cur - cost) * window / prev)
    else
      -- Only in the next window, where this window's count becomes the decaying "previous".
      local wait_in_next = window - (limit - cost) * window / cur
      if wait_in_next < 0 then wait_in_next = 0 end
      retry = ceil(until_end + wait_in_next)
    end
  end
  local b1, b2, b3 = sw_view(limit, window, until_end, prev, cur)
  local a1, a2, a3 = sw_view(limit, window, until_end, prev, cur + cost)
  local value
  if cost > 0 then
    if cur + cost < SW_COUNT and prev < SW_COUNT and w < PACK_WINDOWS then
      value = (w * SW_COUNT + prev) * SW_COUNT + cur + cost
    else
      value = w .. ":" .. (cur + cost) .. ":" .. prev
    end
  end
  return allowed, retry, b1, b2, b3, a1, a2, a3, value, ttl_ms(until_end + window)
end
