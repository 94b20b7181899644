--[[
  Shared preamble of every Sluice script.
  Defines (with includes/values.lua: enc64, dec64, the one-field integer form): begin_call (first
  thing of every call); rcall; floor, ceil, min, format, byte, sub, char, find, match (library
  functions as locals, bound by begin_call); ALGORITHMS (code -> check function); COMMITS (code ->
  custom commit); the subject states (SUBJECTS, load_subjects, state_of, put_state,
  store_one, store_subjects; PASSED); now_from, fmt_num, fmt_int, ttl_ms, EPSILON, split2, split3.

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
  A key whose ONE field holds a compact state is written as one decimal integer instead: the
  state's digits, then the field's ref in decimal (a ref is base 36; 0 to 99 only: one or two
  digits), then one digit telling both the count of ref digits and the field's char:
  (count - 1) * 5 + FIELD_DIGIT - 1; e.g. "t1=<state>" as "<state>12". At most 16 + 2 + 1 digits
  for a state below 2^53, so always below 2^63: Redis keeps such a value as an integer object (16
  bytes) instead of a string (32), and a client with one rule costs 16 bytes less. A value without
  "=" is this form; one with "=" the entries above.
]]
-- Hot library functions as locals (a local is a register, a global two table lookups), bound by
-- begin_call (end of this file): loaded as a function library (FUNCTION LOAD), this file runs once,
-- when neither redis.call nor the standard library is reachable yet.
local rcall, floor, ceil, min, format, byte, sub, char, find, match
local ALGORITHMS = {}
local COMMITS = {}
-- Field char's byte -> passed(value, now): true when a field of that char holds a time that has
-- passed, a state no different from none whatever its rule says (a TAT: tat.lua; a penalty's end:
-- penalty.lua). store_subject drops such a field when the call did not write it, so the field of a
-- deleted (or renamed, or re-typed) rule does not ride along in its subject's key for as long as
-- the subject's other rules keep the key alive.
local PASSED = {}

--!include includes/values.lua

-- key -> its record, ONE table (a table costs the allocator and the collector on every call):
-- rec[1..n] the fields in stored order, rec[field] the field's value (a number or a text; false: a
-- field known to be over, see penalty.lua), rec[-j] true when field j was written this call, rec.T
-- the longest TTL written this call, rec.D true once the key is queued for writing. A field has
-- two characters at least (an algorithm char and a ref), so it never meets "T" or "D". Filled by
-- load_subjects (one GET or MGET per call); a key not loaded is read on first use. Writes land
-- here and reach Redis once per key (store_subjects).
local SUBJECTS -- per call (begin_call)
-- The keys to write, DIRTY[1..DIRTY_N]; the table outlives the call as a function library.
local DIRTY, DIRTY_N = {}, 0

-- Entries are scanned with plain finds (no pattern, no substring for a compact state).
local function parse_subject(raw)
  if raw and not find(raw, "=", 1, true) then
    local rec = parse_integer_form(raw)
    if rec then return rec end
  end
  local rec = { T = 0 }
  if raw then
    local n, pos, len = 0, 1, #raw
    while pos <= len do
      local stop = (find(raw, ",", pos, true) or len + 1) - 1
      local eq = find(raw, "=", pos, true)
      if eq and eq > pos + 1 and eq <= stop then
        local field = sub(raw, pos, eq - 1)
        local v
        local colon = find(raw, ":", eq + 1, true)
        if colon and colon <= stop then v = sub(raw, eq + 1, stop) else v = dec64(raw, eq + 1, stop) end
        if v and rec[field] == nil then
          n = n + 1
          rec[n] = field
          rec[field] = v
        end
      end
      pos = stop + 2
    end
  end
  return rec
end

-- keys[1..n]: the call's subject keys, read at once.
local function load_subjects(keys, n)
  if n == 1 then -- the usual call (one subject): GET builds no reply table
    SUBJECTS[keys[1]] = parse_subject(rcall("GET", keys[1]))
    return
  end
  for first = 1, n, 1000 do -- well inside Lua's limit on unpacked values
    local last = min(first + 999, n)
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
  return subject_of(key)[field]
end

-- Stores a rule's new state (a compact state as a number, or a text form) with the TTL it needs.
local function put_state(key, field, value, ttl)
  local rec = subject_of(key)
  local j
  if rec[field] == nil then
    j = #rec + 1
    rec[j] = field
  else
    j = 1
    while rec[j] ~= field do j = j + 1 end
  end
  rec[field] = value
  rec[-j] = true
  if ttl > rec.T then rec.T = ttl end
  if not rec.D then
    rec.D = true
    DIRTY_N = DIRTY_N + 1
    DIRTY[DIRTY_N] = key
  end
end

-- A subject key's TTL (whole ms) as the text SET ... PX takes, rounded UP to 3 significant digits
-- (at most 1 % longer; no decision depends on expiry, see decide.lua), so that the few hundred
-- texts a deployment's rules need are each formatted once: a format is a C call and a new string,
-- a fifth of what the SET itself costs. As a function library the table outlives the call.
-- Bounded: emptied at TTL_TEXTS_MAX entries.
local TTL_TEXT, TTL_TEXTS, TTL_TEXTS_MAX = {}, 0, 4096

local function ttl_text(ttl)
  if ttl >= 1000 then
    local grain, scaled = 1, ttl
    while scaled >= 1000 do grain, scaled = grain * 10, scaled / 10 end
    local over = ttl % grain
    if over > 0 then ttl = ttl - over + grain end
  end
  local text = TTL_TEXT[ttl]
  if text then return text end
  text = format("%d", ttl)
  if TTL_TEXTS >= TTL_TEXTS_MAX then TTL_TEXT, TTL_TEXTS = {}, 0 end
  TTL_TEXT[ttl], TTL_TEXTS = text, TTL_TEXTS + 1
  return text
end

-- Writes every changed subject key once. Its TTL is the longest a field written this call needs;
-- a field not written this call keeps the life it had, which the key's PTTL covers (every write
-- gave the key at least what each of its fields needed), so then the TTL is at least the PTTL.
-- TTLs are whole ms, sent as text (ttl_text): Redis formats a Lua number argument with "%.17g".
-- now: Redis time when every request of the call ran on it, else nil. An untouched field whose
-- time has passed by then (PASSED) is dropped; not with explicit time, which another caller's
-- clock (SLUICE_TIME_SOURCE=app) or a replay may set earlier.
local function store_subject(key, rec, now)
  local parts, untouched = {}, false
  for j = 1, #rec do
    local field = rec[j]
    local v = rec[field]
    if v ~= false and not rec[-j] then -- a field this call did not write
      local passed = now and PASSED[byte(field)]
      if passed and passed(v, now) then v = false else untouched = true end
    end
    if v ~= false then -- false: a field known to be over (an ended penalty), dropped
      if type(v) == "number" then v = enc64(v) end
      parts[#parts + 1] = field .. "=" .. v
    end
  end
  local ttl = rec.T
  if untouched then
    local left = rcall("PTTL", key)
    if left > ttl then ttl = left end
  end
  rcall("SET", key, table.concat(parts, ","), "PX", ttl_text(ttl))
end

-- Writes a key holding ONE field, field = v, written this call (the usual key): no list to build,
-- no PTTL to read.
local function store_one(key, field, v, ttl)
  local value = integer_form(field, v)
  if not value then
    if type(v) == "number" then v = enc64(v) end
    value = field .. "=" .. v
  end
  rcall("SET", key, value, "PX", ttl_text(ttl))
end

-- now: see store_subject.
local function store_subjects(now)
  for i = 1, DIRTY_N do
    local key = DIRTY[i]
    local rec = SUBJECTS[key]
    local only = rec[1]
    local v = rec[only]
    if rec[2] == nil and v and rec[-1] then
      store_one(key, only, v, rec.T)
    else
      store_subject(key, rec, now)
    end
  end
end

-- On the paths every decision takes, floor(x) is written x - x % 1 and ceil(x) as -(-x - -x % 1)
-- (x a local): the same value for every finite x (Lua's % is x - floor(x / 1) * 1, computed in the
-- VM), without the C call that costs twice as much as the arithmetic. Elsewhere: floor and ceil.

-- Time: explicit ms from the caller (tests, simulation, app-clock mode) or Redis TIME.
local function now_from(arg)
  if arg ~= nil and arg ~= "" then
    local ms = tonumber(arg)
    return ms, ms * 1000
  end
  local t = rcall("TIME")
  -- Arithmetic converts TIME's digits once each; tonumber would parse each twice.
  local s, us = t[1] + 0, t[2] + 0
  local ms = us / 1000
  return s * 1000 + (ms - ms % 1), s * 1000000 + us
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
  local t = -(-x - -x % 1)
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

-- Starts a call: binds the library functions above (on a library's first call; they stay the same
-- objects) and gives the call fresh state. The same code runs as a script (EVAL: all of this file on
-- every call) and as a function library (FCALL: this file once, at FUNCTION LOAD; only the body of
-- decide.lua per call), see lib/limiter/decideScript.ts.
local function begin_call()
  if not rcall then
    rcall = redis.call
    floor, ceil, min, format = math.floor, math.ceil, math.min, string.format
    byte, sub, char, find, match = string.byte, string.sub, string.char, string.find, string.match
  end
  SUBJECTS, DIRTY_N = {}, 0
end
