--[[
  fixed_window ("fw"): windows aligned to the UTC epoch (each starts at a multiple of window_ms).
  State, expiring at the window's end: window index * 2^21 + count while count < 2^21, else the
  text "<window index>:<count>" (see "Compact states" in the preamble).
]]
local FW_COUNT = 2097152 -- 2^21

-- A state's window index and count (one reading for the decision and its give-back).
local function fw_decode(raw)
  local packed = tonumber(raw)
  if packed then
    local sc = packed % FW_COUNT
    return (packed - sc) / FW_COUNT, sc
  end
  return split2(raw)
end

local function fw_encode(w, count)
  if count < FW_COUNT and w < PACK_WINDOWS then return w * FW_COUNT + count end
  return w .. ":" .. count
end

-- One window's decision, shared by "fw" and "fp": the count of window index w, which ends in
-- until_end ms; the key lives ttl_extra ms past that end.
local function fw_count(key, field, w, until_end, ttl_extra, limit, cost)
  local count = 0
  local raw = state_of(key, field)
  if raw then
    local sw, sc = fw_decode(raw)
    if sw == w then count = sc end
  end
  local after = count + cost
  local allowed = after <= limit
  local retry = 0
  if not allowed then
    if cost > limit then retry = -1 else retry = until_end end
  end
  local b_left, a_left = limit - count, limit - after
  if b_left < 0 then b_left = 0 end
  if a_left < 0 then a_left = 0 end
  local b_reset, a_reset = 0, 0
  if count > 0 then b_reset = until_end end
  if after > 0 then a_reset = until_end end
  local value
  if cost > 0 then
    value = fw_encode(w, after)
  end
  return allowed, retry, b_left, b_reset, b_reset, a_left, a_reset, a_reset, value, ttl_ms(until_end + ttl_extra)
end

ALGORITHMS["fw"] = function(key, field, now, now_us, limit, window, burst, cost)
  local w = now / window
  w = w - w % 1 -- floor inline: see the preamble, above now_from
  return fw_count(key, field, w, (w + 1) * window - now, 0, limit, cost)
end

--[[
  fixed_window per calendar period ("fp", rule field period: lib/limiter/calendar.ts). The spec's
  window is not a length but the periods' boundaries, epoch ms ascending, that the limiter computed
  around its own clock (the previous period's start, the current's, the next's and its end: time
  zones are beyond Lua); the period holding now (Redis TIME) is counted, so an instance whose clock
  is off by less than a period still counts in the right one (a now outside them all counts in the
  nearest). The state is fixed_window's with the period's start in whole seconds as its window
  index (below 2^32 until 2106); the key lives until the period's end and FP_MARGIN_MS more.
]]
local FP_MARGIN_MS = 60000

-- The period holding t: its start and end.
local function fp_period(bounds, t)
  local i, last = 1, #bounds - 1
  while i < last and t >= bounds[i + 1] do i = i + 1 end
  return bounds[i], bounds[i + 1]
end

-- "b1:b2:...": the bounds as numbers, or nil when one is not.
local function fp_bounds(text)
  local bounds = {}
  for part in string.gmatch(text, "[^:]+") do
    local v = tonumber(part)
    if not v then return nil end
    bounds[#bounds + 1] = v
  end
  if #bounds < 2 then return nil end
  return bounds
end

ALGORITHMS["fp"] = function(key, field, now, now_us, limit, bounds, burst, cost)
  local start, stop = fp_period(bounds, now)
  local w = floor(start / 1000)
  local until_end = stop - now
  if until_end < 1 then until_end = 1 end
  return fw_count(key, field, w, until_end, FP_MARGIN_MS, limit, cost)
end
