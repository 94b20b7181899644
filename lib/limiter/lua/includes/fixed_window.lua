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

ALGORITHMS["fw"] = function(key, field, now, now_us, limit, window, burst, cost)
  local w = now / window
  w = w - w % 1 -- floor inline: see the preamble, above now_from
  local count = 0
  local raw = state_of(key, field)
  if raw then
    local sw, sc = fw_decode(raw)
    if sw == w then count = sc end
  end
  local until_end = (w + 1) * window - now
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
  return allowed, retry, b_left, b_reset, b_reset, a_left, a_reset, a_reset, value, ttl_ms(until_end)
end
