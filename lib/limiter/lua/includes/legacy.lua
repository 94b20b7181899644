--[[
  Rolling upgrade from the per-rule key layout (SLUICE_LEGACY_COUNTER_KEYS, lib/limiter/decide.ts
  `legacyKeys`): each rule's state is also read from its per-rule key of the earlier layout, and the
  more advanced of the two is the state its check reads; a consumed state is written to both.
  Included right after preamble.lua, whose locals it uses (LEGACY, rcall, min, format, split2,
  split3, subject_of, add_field, fmt_int).
  Defines: load_legacy(keys, n) (one MGET per 1000 keys), adopt_legacy(key, field, code, legacy_key),
  put_legacy(key, value, ttl).
  Legacy keys hold a state exactly as a field holds it, in decimal or text.
]]

-- keys[1..n]: the call's legacy keys.
local function load_legacy(keys, n)
  if n == 0 then return end
  LEGACY = {}
  for first = 1, n, 1000 do
    local last = min(first + 999, n)
    local values = rcall("MGET", unpack(keys, first, last))
    for i = first, last do
      local raw = values[i - first + 1]
      if raw then LEGACY[keys[i]] = tonumber(raw) or raw else LEGACY[keys[i]] = false end
    end
  end
end

-- How far a state has moved, as one number that only grows as a rule's state is written: the
-- packed integer itself, or the same layout computed from a text form.
local function progress(code, v)
  if type(v) == "number" then return v end
  if code == "fw" then
    local w, c = split2(v)
    return w * 2097152 + c
  elseif code == "sw" then
    local w, c, p = split3(v)
    return (w * 1024 + p) * 1024 + c
  end
  local ms, fraction = split2(v)
  return (ms + fraction) * 2048
end

-- Makes the more advanced of a rule's field and its legacy key the state its check reads.
local function adopt_legacy(key, field, code, legacy_key)
  local old = LEGACY and LEGACY[legacy_key]
  if not old then return end
  local rec = subject_of(key)
  local current = rec[field]
  if current ~= nil and progress(code, current) >= progress(code, old) then return end
  if current == nil then add_field(rec, field, old) else rec[field] = old end
end

local function put_legacy(key, value, ttl)
  rcall("SET", key, type(value) == "number" and fmt_int(value) or value, "PX", format("%d", ttl))
  if LEGACY then LEGACY[key] = value end
end
