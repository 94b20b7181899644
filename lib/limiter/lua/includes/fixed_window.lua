--[[
  fixed_window ("fw"): windows aligned to the UTC epoch (each starts at a multiple of window_ms).
  State: a string "<window index>:<count>", expiring at the window's end.
]]
ALGORITHMS["fw"] = function(key, now, now_us, limit, window, burst, cost)
  local w = math.floor(now / window)
  local count = 0
  local raw = rcall("GET", key)
  if raw then
    local s = read_numbers(raw)
    if s[1] == w then count = s[2] end
  end
  local until_end = (w + 1) * window - now
  local after_count = count + cost
  local r = { allowed = after_count <= limit, retry = 0 }
  local function view(c)
    local left = limit - c
    if left < 0 then left = 0 end
    local reset = 0
    if c > 0 then reset = until_end end
    return { remaining = left, reset = reset, next = reset }
  end
  r.before = view(count)
  r.after = view(after_count)
  if not r.allowed then
    if cost > limit then r.retry = -1 else r.retry = until_end end
  end
  if cost > 0 then
    r.commit = function()
      rcall("SET", key, w .. ":" .. after_count, "PX", ttl_ms(until_end))
    end
  end
  return r
end
