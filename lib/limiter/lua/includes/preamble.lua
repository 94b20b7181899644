--[[
  Shared preamble of every Sluice script.
  Defines: rcall; floor, ceil, min, tonumber, format (library functions as locals); ALGORITHMS
  (code -> check function); COMMITS (code -> custom commit); STATES and state_of (string states
  read once per call); now_from, fmt_num, fmt_int, ttl_ms, EPSILON, split2, split3.

  A check function has the signature
    check(key, now_ms, now_us, limit, window_ms, burst, cost)
  and returns 10 values, flat (no tables: this runs for every rule of every request):
    allowed      boolean, this rule alone admits the request
    retry        ms until this request would pass (0 if allowed, -1 if it never can: cost > capacity)
    remaining, reset, next   as things stand (not consumed)
    remaining, reset, next   once this request is consumed
    value, ttl   what to SET (with PX ttl) when the request is consumed; nil value: nothing to write,
                 unless the algorithm has a COMMITS entry, which then writes instead.
  A check reads a string state through state_of(key), never GET: decide.lua fetches every string
  state of the call with one MGET and keeps STATES up to date as it writes, so a later request of
  the same call sees what an earlier one consumed.
]]
local rcall = redis.call
-- Hot library functions as locals: a local is a register, a global two table lookups.
local floor, ceil, min, tonumber, format = math.floor, math.ceil, math.min, tonumber, string.format
local ALGORITHMS = {}
local COMMITS = {}

-- key -> string state, or false for none. Filled by one MGET per call (decide.lua); a key not
-- prefetched is read on first use.
local STATES = {}
local function state_of(key)
  local v = STATES[key]
  if v == nil then
    v = rcall("GET", key)
    STATES[key] = v
  end
  if v then return v end
  return nil
end

-- Time: explicit ms from the caller (tests, simulation, app-clock mode) or Redis TIME.
local function now_from(arg)
  if arg ~= nil and arg ~= "" then
    local ms = tonumber(arg)
    return ms, ms * 1000
  end
  local t = rcall("TIME")
  local s, us = tonumber(t[1]), tonumber(t[2])
  return s * 1000 + floor(us / 1000), s * 1000000 + us
end

-- Doubles are stored with 17 significant digits so a read gives back exactly what was written.
local function fmt_num(x)
  return format("%.17g", x)
end

-- Whole numbers below 2^53 as plain digits. Redis stores such a value as an integer (a 16-byte
-- object instead of a 32- to 48-byte string), which is why compact states are packed into one.
local function fmt_int(x)
  return format("%.0f", x)
end

-- Compact states: a window index and counts packed into one integer below 2^53 (exact in a
-- double), written as plain digits, which Redis stores as an integer object (16 bytes) instead
-- of a string (32 to 48). Window indexes stay below 2^32 until 2106 for windows of 1 s or more.
-- A state whose counts do not fit is written as text; readers tell the two forms apart by
-- content (a ':' means text), never by the rule's current limit, which may have been edited.
local PACK_WINDOWS = 4294967296 -- 2^32

-- A TTL for SET PX: whole ms, at least 1.
local function ttl_ms(x)
  local t = ceil(x)
  if t < 1 then return 1 end
  return t
end

-- Tolerance for floating-point drift in rate arithmetic (e.g. 3T - T must floor to 2T / T = 2).
local EPSILON = 1e-9

-- "a:b" and "a:b:c" into numbers.
local function split2(raw)
  local a, b = string.match(raw, "^([^:]+):([^:]+)$")
  return tonumber(a), tonumber(b)
end

local function split3(raw)
  local a, b, c = string.match(raw, "^([^:]+):([^:]+):([^:]+)$")
  return tonumber(a), tonumber(b), tonumber(c)
end
