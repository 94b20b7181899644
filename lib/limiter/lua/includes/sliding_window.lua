--[[
  sliding_window ("sw"): weighted two-window counter over epoch-aligned windows.
  estimate = previous * (window - elapsed) / window + current
  State: a string "<window index>:<current>:<previous>", expiring when the current window no
  longer weighs (the end of the next window).
]]
ALGORITHMS["sw"] = function(key, now, now_us, limit, window, burst, cost)
  local w = math.floor(now / window)
  local cur, prev = 0, 0
  local raw = rcall("GET", key)
  if raw then
    local s = read_numbers(raw)
    if s[1] == w then
      cur, prev = s[2], s[3]
    elseif s[1] == w - 1 then
      prev = s[2]
    end
  end
  local elapsed = now - w * window
  local until_end = window - elapsed
  local function view(c)
    local estimate = prev * until_end / window + c
    local left = math.floor(limit - estimate)
    if left < 0 then left = 0 end
    local reset, nxt = 0, 0
    if c > 0 then
      reset = until_end + window
    elseif prev > 0 then
      reset = until_end
    end
    if prev > 0 then
      nxt = math.min(math.ceil(window / prev), until_end)
    elseif c > 0 then
      nxt = until_end
    end
    return { remaining = left, reset = reset, next = nxt }
  end
  local estimate = prev * until_end / window + cur
  local r = { allowed = estimate + cost <= limit, retry = 0 }
  r.before = view(cur)
  r.after = view(cur + cost)
  if not r.allowed then
    if cost > limit then
      r.retry = -1
    elseif limit - cur - cost >= 0 then
      -- Within this window, once the previous window's weight has decayed enough.
      r.retry = math.ceil(until_end - (limit - cur - cost) * window / prev)
    else
      -- Only in the next window, where this window's count becomes the decaying "previous".
      local wait_in_next = window - (limit - cost) * window / cur
      if wait_in_next < 0 then wait_in_next = 0 end
      r.retry = math.ceil(until_end + wait_in_next)
    end
  end
  if cost > 0 then
    r.commit = function()
      rcall("SET", key, w .. ":" .. (cur + cost) .. ":" .. prev, "PX", ttl_ms(until_end + window))
    end
  end
  return r
end
