--[[
  Shared preamble of every Sluice script.
  Defines: rcall, ALGORITHMS (code -> check function), now_from(arg), fmt_num(x), ttl_ms(x).

  A check function has the signature
    check(key, now_ms, now_us, limit, window_ms, burst, cost)
  and returns a table:
    allowed      boolean, this rule alone admits the request
    retry        ms until this request would pass (0 if allowed, -1 if it never can: cost > capacity)
    before       { remaining, reset, next } as things stand (not consumed)
    after        { remaining, reset, next } once this request is consumed
    commit       function() writing the consumed state, with a TTL, or nil when nothing is written
]]
local rcall = redis.call
local ALGORITHMS = {}

-- Time: explicit ms from the caller (tests, simulation, app-clock mode) or Redis TIME.
local function now_from(arg)
  if arg ~= nil and arg ~= "" then
    local ms = tonumber(arg)
    return ms, ms * 1000
  end
  local t = rcall("TIME")
  local s, us = tonumber(t[1]), tonumber(t[2])
  return s * 1000 + math.floor(us / 1000), s * 1000000 + us
end

-- Doubles are stored with 17 significant digits so a read gives back exactly what was written.
local function fmt_num(x)
  return string.format("%.17g", x)
end

-- A TTL for SET PX: whole ms, at least 1.
local function ttl_ms(x)
  local t = math.ceil(x)
  if t < 1 then return 1 end
  return t
end

-- Tolerance for floating-point drift in rate arithmetic (e.g. 3T - T must floor to 2T / T = 2).
local EPSILON = 1e-9

-- Splits "a:b:c" into numbers.
local function read_numbers(raw)
  local out = {}
  for part in string.gmatch(raw, "[^:]+") do
    out[#out + 1] = tonumber(part)
  end
  return out
end
