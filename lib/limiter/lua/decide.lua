--[[
  decide: atomic decisions for a batch of requests, evaluated one after another in one script
  call (a later request sees what an earlier one consumed). Each request is all-or-nothing over
  every rule that applies to it.

  KEYS     the counter keys of every rule of every request, in order. All keys of one call carry
           the same hash tag ({tenant}), so they live in one Redis Cluster slot.
  ARGV     the rule specs of the call, each sent once however many requests share it:
           ARGV[1] number of specs m, then per spec 6 fields: algorithm code (fw|sw|sl|tb|gc),
             limit, window ms, burst, cost, "1" for an enforce rule or "0" for a shadow rule;
           then the number of requests, then per request:
             now in epoch ms, or "" to read Redis TIME (read once per call)
             "1": consume when every enforce rule allows; "0": peek, never write
             TTL floor in ms: 0 normally; with explicit time (tests, simulation) the caller passes
               a real-time floor, because a TTL computed in simulated time would expire keys while
               the sequence is still being replayed. No algorithm relies on expiry for correctness
               (each reads its window or time from the state), so a longer TTL never changes a
               decision.
             number of rules n, then n spec numbers (1-based), one per key of the request

  Reply: per request { now_ms, committed (0|1),
           then per rule: allowed (0|1), remaining, reset_ms, retry_after_ms (-1: never), next_ms }
  A refusal by any enforce rule commits nothing: no rule, shadow or not, consumes quota.
  A shadow rule that would refuse does not consume either (it counts as if it were enforced).
]]
--!include includes/preamble.lua
--!include includes/fixed_window.lua
--!include includes/sliding_window.lua
--!include includes/sliding_log.lua
--!include includes/tat.lua
--!include includes/token_bucket.lua
--!include includes/gcra.lua

local FIELDS = 6
local HEAD = 4 -- per request: now, commit, ttl floor, n
local STRIDE = 10 -- values kept per rule: what a check returns (see preamble.lua)
local MGET_CHUNK = 1000 -- keys per MGET: well inside Lua's limit on unpacked values

-- The specs, parsed once per call.
local spec_count = tonumber(ARGV[1])
local CODE, CHECK, LIMIT, WINDOW, BURST, COST, ENFORCE = {}, {}, {}, {}, {}, {}, {}
for j = 1, spec_count do
  local base = 2 + (j - 1) * FIELDS
  CODE[j] = ARGV[base]
  CHECK[j] = ALGORITHMS[ARGV[base]]
  if not CHECK[j] then
    return redis.error_reply("ERR sluice: unknown algorithm code " .. tostring(ARGV[base]))
  end
  LIMIT[j], WINDOW[j], BURST[j], COST[j] = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  ENFORCE[j] = ARGV[base + 5] == "1"
end
local REQUESTS_AT = 2 + spec_count * FIELDS

-- Every string state of the call in one MGET instead of one GET per rule (sorted sets excluded).
do
  local wanted, seen = {}, {}
  local arg, key = REQUESTS_AT + 1, 1
  for _ = 1, tonumber(ARGV[REQUESTS_AT]) do
    local n = tonumber(ARGV[arg + 3])
    arg = arg + HEAD
    for i = 1, n do
      local k = KEYS[key + i - 1]
      if CODE[tonumber(ARGV[arg + i - 1])] ~= "sl" and not seen[k] then
        seen[k] = true
        wanted[#wanted + 1] = k
      end
    end
    arg = arg + n
    key = key + n
  end
  for first = 1, #wanted, MGET_CHUNK do
    local last = min(first + MGET_CHUNK - 1, #wanted)
    local values = rcall("MGET", unpack(wanted, first, last))
    for i = first, last do STATES[wanted[i]] = values[i - first + 1] end
  end
end

local reply = {}
local arg, key = REQUESTS_AT + 1, 1
local redis_now, redis_now_us
local out = {}
local specs = {}

for _ = 1, tonumber(ARGV[REQUESTS_AT]) do
  local now, now_us
  if ARGV[arg] == "" then
    if not redis_now then redis_now, redis_now_us = now_from("") end
    now, now_us = redis_now, redis_now_us
  else
    now, now_us = now_from(ARGV[arg])
  end
  local wants_commit = ARGV[arg + 1] == "1"
  local ttl_floor = tonumber(ARGV[arg + 2])
  local n = tonumber(ARGV[arg + 3])
  arg = arg + HEAD

  local every_enforce_allows = true
  for i = 1, n do
    local j = tonumber(ARGV[arg + i - 1])
    if not CODE[j] then
      return redis.error_reply("ERR sluice: no rule spec " .. tostring(ARGV[arg + i - 1]))
    end
    specs[i] = j
    local o = (i - 1) * STRIDE
    out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5], out[o + 6], out[o + 7], out[o + 8], out[o + 9], out[o + 10] =
      CHECK[j](KEYS[key + i - 1], now, now_us, LIMIT[j], WINDOW[j], BURST[j], COST[j])
    if ENFORCE[j] and not out[o + 1] then every_enforce_allows = false end
  end

  local committed = wants_commit and every_enforce_allows
  local r = #reply
  reply[r + 1] = now
  reply[r + 2] = committed and 1 or 0
  r = r + 2
  for i = 1, n do
    local o = (i - 1) * STRIDE
    local allowed = out[o + 1]
    local v = o + 2 -- the "before" view
    if committed and allowed then
      local j = specs[i]
      if COST[j] > 0 then
        local k = KEYS[key + i - 1]
        local commit = COMMITS[CODE[j]]
        if commit then
          commit(k, now, now_us, WINDOW[j], COST[j], ttl_floor)
        else
          local ttl = out[o + 10]
          if ttl < ttl_floor then ttl = ttl_floor end
          rcall("SET", k, out[o + 9], "PX", ttl)
          STATES[k] = out[o + 9]
        end
      end
      v = o + 5 -- the "after" view
    end
    reply[r + 1] = allowed and 1 or 0
    reply[r + 2] = floor(out[v + 1])
    reply[r + 3] = ceil(out[v + 2])
    reply[r + 4] = ceil(out[o + 2])
    reply[r + 5] = ceil(out[v + 3])
    r = r + 5
  end
  arg = arg + n
  key = key + n
end
return reply
