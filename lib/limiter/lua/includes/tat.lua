--[[
  Theoretical arrival time (TAT), the one limiter behind token_bucket ("tb") and gcra ("gc").
  A token bucket of capacity `burst` that refills `limit` units per `window` ms admits exactly what
  GCRA with emission interval T = window / limit and burst tolerance burst * T admits: tokens left
  = burst - (tat - now) / T. Storing the TAT (when the bucket is full again) instead of
  "<tokens>:<updated at>" makes the state ONE number, kept until the TAT passes (a missing state is
  a full bucket). Arithmetic works on `ahead = tat - now` (small numbers): an epoch-ms double has
  only ~0.2 us of precision left.

  State, told apart by content (a ':' means text), never by the rule's current parameters:
  - packed integer: whole ms of the TAT * 2^11 + f, the TAT's fraction of a ms being f / q, where
    q is the denominator of T in lowest terms (T = p / q ms). Every TAT is some now plus multiples
    of T, so its fraction is a multiple of 1 / q, stored exactly. Used while q <= 2^11, the TAT is
    below 2^42 ms (the year 2109) and less than 2^32 ms ahead, so the integer stays below 2^53.
    Redis keeps it as a 16-byte integer object instead of a 32- to 48-byte string.
  - text "<whole ms>:<fraction>" otherwise (17 significant digits, read back exactly).
  After an edit that changes q, a packed fraction is read in the new unit and capped below 1 ms:
  the TAT moves by less than one millisecond, once.
]]
local TAT_UNITS = 2048 -- 2^11
local TAT_MAX_MS = 4398046511104 -- 2^42
local TAT_MAX_AHEAD = 4294967296 -- 2^32

local function gcd(a, b)
  while b ~= 0 do a, b = b, a % b end
  return a
end

-- The denominator of window / limit in lowest terms. The last rule's is kept (most calls decide
-- the same few rules over and over; the gcd loop costs more than the rest of a check's arithmetic).
local last_limit, last_window, last_q
local function tat_denominator(limit, window)
  if limit ~= last_limit or window ~= last_window then
    last_limit, last_window, last_q = limit, window, limit / gcd(limit, window)
  end
  return last_q
end

-- ahead (tat - now, ms) from a stored state; 0 when the TAT has passed.
local function tat_ahead(raw, now, q)
  local ahead
  local packed = tonumber(raw)
  if packed then
    local f = packed % TAT_UNITS
    if f >= q then f = q - 1 end
    ahead = ((packed - f) / TAT_UNITS - now) + f / q
  else
    local ms, fraction = split2(raw)
    ahead = (ms - now) + fraction
  end
  if ahead > 0 then return ahead end
  return 0
end

-- The state for a TAT `ahead` ms after `now`.
local function tat_state(now, ahead, q)
  local whole = ahead - ahead % 1 -- floor and ceil inline: see the preamble, above now_from
  local fraction = ahead - whole
  whole = now + whole
  if q <= TAT_UNITS and ahead < TAT_MAX_AHEAD then
    local f = fraction * q + 0.5
    f = f - f % 1
    if f >= q then
      whole, f = whole + 1, 0
    end
    if whole < TAT_MAX_MS then return whole * TAT_UNITS + f end
  end
  return whole .. ":" .. fmt_num(fraction)
end

-- remaining, reset, next for a TAT `d` ms ahead.
local function tat_view(burst, interval, tolerance, d)
  local left = (tolerance - d) / interval + EPSILON
  left = left - left % 1
  if left < 0 then left = 0 end
  if left > burst then left = burst end
  if d <= 0 then return left, 0, 0 end
  local nxt = (left + 1) * interval + d - tolerance - EPSILON
  nxt = -(-nxt - -nxt % 1)
  if nxt < 0 then nxt = 0 end
  local reset = EPSILON - d
  return left, -(reset - reset % 1), nxt
end

-- PASSED (preamble.lua) of a TAT field: the TAT is at or before now (its fraction of a ms, below 1,
-- is taken as a whole one for a packed state, whose denominator only the rule knows).
local function tat_passed(raw, now)
  if type(raw) == "number" then return (raw - raw % TAT_UNITS) / TAT_UNITS + 1 <= now end
  local ms, fraction = split2(raw)
  return ms ~= nil and fraction ~= nil and ms + fraction <= now
end

local function tat_check(key, field, now, now_us, limit, window, burst, cost)
  local interval = window / limit
  local tolerance = burst * interval
  local q = tat_denominator(limit, window)
  local ahead = 0
  local raw = state_of(key, field)
  if raw then ahead = tat_ahead(raw, now, q) end
  local new_ahead = ahead + cost * interval
  local allowed = new_ahead <= tolerance + EPSILON
  local retry = 0
  if not allowed then
    if cost > burst then retry = -1 else retry = ceil(new_ahead - tolerance - EPSILON) end
  end
  local b1, b2, b3 = tat_view(burst, interval, tolerance, ahead)
  local a1, a2, a3 = tat_view(burst, interval, tolerance, new_ahead)
  local value
  if cost > 0 then value = tat_state(now, new_ahead, q) end
  return allowed, retry, b1, b2, b3, a1, a2, a3, value, ttl_ms(new_ahead)
end
