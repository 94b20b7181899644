--[[
  Shared preamble of every Sluice script.
  Defines: begin_call (first thing of every call); rcall; floor, ceil, min, format, byte, sub,
  char, find (library functions as locals, bound by begin_call); ALGORITHMS
  (code -> check function); COMMITS (code -> custom commit); the subject states (SUBJECTS,
  load_subjects, state_of, put_state, store_subjects; LEGACY; its functions in legacy.lua); now_from, fmt_num, fmt_int, ttl_ms, EPSILON,
  split2, split3.

  A check function has the signature
    check(key, field, now_ms, now_us, limit, window_ms, burst, cost)
  and returns 10 values, flat (no tables: this runs for every rule of every request):
    allowed      boolean, this rule alone admits the request
    retry        ms until this request would pass (0 if allowed, -1 if it never can: cost > capacity)
    remaining, reset, next   as things stand (not consumed)
    remaining, reset, next   once this request is consumed
    value, ttl   the state to store (put_state) when the request is consumed: a number (a compact
                 state, encoded once when the key is written) or a text form; nil value: nothing to
                 write, unless the algorithm has a COMMITS entry, which then writes instead.
  A check reads its state through state_of(key, field), never GET.

  Subject keys (every algorithm but sliding_log): ONE string key per subject holds the state of
  every rule of that subject, as "<field>=<state>" entries joined by ",". A field is the rule's
  algorithm char and ref (lib/limiter/keys.ts); a state is a compact integer in base 64 (digits,
  letters, "-", "_"; 9 characters at most below 2^53) or a text form, which always holds a ":".
  One read (the call's MGET) and one write (SET ... PX) per key and call, whatever the number of
  rules; the key lives as long as its longest-lived field needs (see store_subjects).
]]
-- Hot library functions as locals (a local is a register, a global two table lookups), bound by
-- begin_call (end of this file): loaded as a function library (FUNCTION LOAD), this file runs once,
-- when neither redis.call nor the standard library is reachable yet.
local rcall, floor, ceil, min, format, byte, sub, char, find
local ALGORITHMS = {}
local COMMITS = {}

-- Base 64 of a whole number below 2^53 (a compact state), and back. Digits are computed, not
-- looked up: this file runs on every call (EVAL), and building a 64-entry table each time cost
-- more than a whole one-rule decision.
local B64 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"

-- The byte of digit d (0..63): "0"-"9", "A"-"Z", "a"-"z", "-", "_".
local function b64_byte(d)
  if d < 10 then return 48 + d elseif d < 36 then return 55 + d elseif d < 62 then return 61 + d elseif d == 62 then return 45 end
  return 95
end

local function enc64(n)
  if n < 64 then return sub(B64, n + 1, n + 1) end
  -- Digits into locals, then one string (a string per digit cost more than the rest of a check).
  local d1, d2, d3, d4, d5, d6, d7, d8, d9 = n % 64
  n = (n - d1) / 64
  d2 = n % 64; n = (n - d2) / 64
  if n == 0 then return char(b64_byte(d2), b64_byte(d1)) end
  d3 = n % 64; n = (n - d3) / 64
  if n == 0 then return char(b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d4 = n % 64; n = (n - d4) / 64
  if n == 0 then return char(b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d5 = n % 64; n = (n - d5) / 64
  if n == 0 then return char(b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d6 = n % 64; n = (n - d6) / 64
  if n == 0 then return char(b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d7 = n % 64; n = (n - d7) / 64
  if n == 0 then return char(b64_byte(d7), b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d8 = n % 64; n = (n - d8) / 64
  if n == 0 then return char(b64_byte(d8), b64_byte(d7), b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d9 = n % 64; n = (n - d9) / 64
  if n == 0 then return char(b64_byte(d9), b64_byte(d8), b64_byte(d7), b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  -- 2^54 and above (never a compact state): the general loop.
  local out = char(b64_byte(d9), b64_byte(d8), b64_byte(d7), b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1))
  while n > 0 do
    local d = n % 64
    out = char(b64_byte(d)) .. out
    n = (n - d) / 64
  end
  return out
end

-- The value of the base-64 digits s[i..j], or nil when one is not a digit (inline tests: a
-- function call per digit cost a third of the decode).
local function dec64(s, i, j)
  local n = 0
  for k = i, j do
    local b = byte(s, k)
    if b >= 97 then
      if b > 122 then return nil end
      n = n * 64 + b - 61
    elseif b >= 65 then
      if b <= 90 then n = n * 64 + b - 55 elseif b == 95 then n = n * 64 + 63 else return nil end
    elseif b >= 48 then
      if b > 57 then return nil end
      n = n * 64 + b - 48
    elseif b == 45 then
      n = n * 64 + 62
    else
      return nil
    end
  end
  return n
end

-- key -> { order = {field, ...}, value = {field -> number or text}, written = {field -> true},
-- ttl = longest TTL written this call }. Filled by load_subjects (one MGET per call); a key not
-- loaded is read on first use. Writes land here and reach Redis once per key (store_subjects).
local SUBJECTS, DIRTY -- per call (begin_call)

-- Entries are scanned with plain finds (no pattern, no substring for a compact state).
local function parse_subject(raw)
  local rec = { order = {}, value = {}, written = {}, ttl = 0 }
  if raw then
    local pos, len = 1, #raw
    while pos <= len do
      local stop = (find(raw, ",", pos, true) or len + 1) - 1
      local eq = find(raw, "=", pos, true)
      if eq and eq > pos and eq <= stop then
        local field = sub(raw, pos, eq - 1)
        local v
        local colon = find(raw, ":", eq + 1, true)
        if colon and colon <= stop then v = sub(raw, eq + 1, stop) else v = dec64(raw, eq + 1, stop) end
        if v and rec.value[field] == nil then
          rec.order[#rec.order + 1] = field
          rec.value[field] = v
        end
      end
      pos = stop + 2
    end
  end
  return rec
end

local function load_subjects(keys)
  if #keys == 1 then -- the usual call (one subject): GET builds no reply table
    SUBJECTS[keys[1]] = parse_subject(rcall("GET", keys[1]))
    return
  end
  for first = 1, #keys, 1000 do -- well inside Lua's limit on unpacked values
    local last = min(first + 999, #keys)
    local values = rcall("MGET", unpack(keys, first, last))
    for i = first, last do SUBJECTS[keys[i]] = parse_subject(values[i - first + 1]) end
  end
end

local function subject_of(key)
  local rec = SUBJECTS[key]
  if not rec then
    rec = parse_subject(rcall("GET", key))
    SUBJECTS[key] = rec
  end
  return rec
end

-- A rule's state: a number (compact form) or a text (holds ":"), or nil for none (false: a field
-- marked over this call, see penalty.lua).
local function state_of(key, field)
  return subject_of(key).value[field]
end

-- Stores a rule's new state (a compact state as a number, or a text form) with the TTL it needs.
local function put_state(key, field, value, ttl)
  local rec = subject_of(key)
  if rec.value[field] == nil then rec.order[#rec.order + 1] = field end
  rec.value[field] = value
  rec.written[field] = true
  if ttl > rec.ttl then rec.ttl = ttl end
  if not DIRTY[key] then
    DIRTY[key] = true
    DIRTY[#DIRTY + 1] = key
  end
end

-- Writes every changed subject key once. Its TTL is the longest a field written this call needs;
-- a field not written this call keeps the life it had, which the key's PTTL covers (every write
-- gave the key at least what each of its fields needed), so then the TTL is at least the PTTL.
local function store_subject(key, rec)
  local parts, untouched = {}, false
  for j = 1, #rec.order do
    local field = rec.order[j]
    local v = rec.value[field]
    if v ~= false then -- false: a field known to be over (an ended penalty), dropped
      if type(v) == "number" then v = enc64(v) end
      parts[#parts + 1] = field .. "=" .. v
      if not rec.written[field] then untouched = true end
    end
  end
  local ttl = rec.ttl
  if untouched then
    local left = rcall("PTTL", key)
    if left > ttl then ttl = left end
  end
  rcall("SET", key, table.concat(parts, ","), "PX", ttl)
end

local function store_subjects()
  for i = 1, #DIRTY do
    local key = DIRTY[i]
    local rec = SUBJECTS[key]
    local only = rec.order[1]
    local v = rec.value[only]
    if rec.order[2] == nil and v and rec.written[only] then
      -- One field, written this call (the usual key): no list to build, no PTTL to read.
      if type(v) == "number" then v = enc64(v) end
      rcall("SET", key, only .. "=" .. v, "PX", rec.ttl)
    else
      store_subject(key, rec)
    end
  end
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

-- Rolling upgrade (includes/legacy.lua): the per-rule keys of the earlier layout read this call.
local LEGACY -- per call (begin_call)

-- Starts a call: binds the library functions above and gives the call fresh state. The same code
-- runs as a script (EVAL: all of this file on every call) and as a function library (FCALL: this
-- file once, at FUNCTION LOAD; only the body of decide.lua per call), see lib/limiter/decideScript.ts.
local function begin_call()
  rcall = redis.call
  floor, ceil, min, format = math.floor, math.ceil, math.min, string.format
  byte, sub, char, find = string.byte, string.sub, string.char, string.find
  SUBJECTS, DIRTY, LEGACY = {}, {}, {}
end
