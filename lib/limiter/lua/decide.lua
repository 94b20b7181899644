--[[
  decide: atomic decisions for a batch of requests, evaluated one after another in one script
  call (a later request sees what an earlier one consumed). Each request is all-or-nothing over
  every rule that applies to it.

  KEYS     the call's distinct state keys, each once: one subject key per subject (holding every
           rule of that subject but sliding_log and concurrency ones, and the penalties of all of
           them, see "Subject keys" in preamble.lua and includes/penalty.lua) and one sorted set
           per sliding_log or concurrency rule and subject. All keys of one call carry the same hash
           tag ({tenant}), so they live in one Redis Cluster slot.
  ARGV     the rule specs of the call, each sent once however many requests share it:
           ARGV[1] number of specs m, then per spec ONE argument, its 9 fields joined by ",":
             algorithm code (fw|fp|sw|sl|tb|gc|cc),
             limit, window ms (fp, a calendar rule: its periods' bounds "b1:b2:b3:b4", epoch ms,
             see includes/fixed_window.lua), burst, cost,
             "1" for an enforce rule or "0" for a shadow rule,
             the rule's field in its subject key ("" for sliding_log), its penalty in ms
             (blockMs, 0: none) and its penalty field ("" when none; see includes/penalty.lua);
           then the number of requests, then per request ONE argument, these fields joined by ",":
             now in epoch ms, or "" to read Redis TIME (read once per call)
             "1": consume when every enforce rule allows; "0": peek, never write; "2": as "1" if the
               request before it in this call committed, else as "0" (a decision that only counts
               once another was admitted: lib/limiter/decide.ts `decideThen`)
             lease id: the member a concurrency rule adds to its set when the request commits
               ("" when the request has no concurrency rule; then a commit under one is an error)
             TTL floor in ms: 0 normally; with explicit time (tests, simulation) the caller passes
               a real-time floor, because a TTL computed in simulated time would expire keys while
               the sequence is still being replayed. No algorithm relies on expiry for correctness
               (each reads its window or time from the state), so a longer TTL never changes a
               decision.
             number of rules n, then per rule its spec number (1-based), its key number (1-based)
               and the number of its second key, or 0: for a sliding_log rule with a penalty, the
               subject key holding the penalty; any other rule has none (0)
           No field holds a ",": codes and numbers, fields and lease ids are [A-Za-z0-9_-].
           One argument per spec and per request, not one per field: each argument costs the
           client (ioredis) and Redis per call, and a spec parsed once stays parsed (SPEC_CACHE).

  Reply: per request { now_ms, committed (0|1),
           then per rule: allowed (1; 0 refused; 2 refused under a penalty in force), remaining,
           reset_ms, retry_after_ms (-1: never), next_ms }
  A refusal by any enforce rule commits nothing: no rule, shadow or not, consumes quota.
  Penalties: a rule under a penalty refuses whatever its counter says; a rule whose own counter
  refuses a request to be charged starts its penalty (written even though nothing is consumed).
  A shadow rule that would refuse does not consume either (it counts as if it were enforced).
  Writes: each changed subject key is written once at the end of the call (one SET PX), without
  the fields the call did not write whose time has passed (a TAT, a penalty's end: preamble.lua
  PASSED); sliding_log sorted sets as each request commits.
  One request of one rule on a subject key without a penalty (the sequential call) takes
  decide_one (includes/one_request.lua): the same steps, without the bookkeeping of a batch.
]]
--!include includes/preamble.lua
--!include includes/fixed_window.lua
--!include includes/sliding_window.lua
--!include includes/sliding_log.lua
--!include includes/tat.lua
--!include includes/token_bucket.lua
--!include includes/gcra.lua
--!include includes/penalty.lua
--!include includes/concurrency.lua
--!include includes/one_request.lua

-- Appends the ","-separated fields of s to t from index at (an empty field is ""); returns the
-- index after the last.
local function split_into(s, t, at)
  local pos = 1
  while true do
    local comma = find(s, ",", pos, true)
    if not comma then
      t[at] = sub(s, pos)
      return at + 1
    end
    t[at] = sub(s, pos, comma - 1)
    at, pos = at + 1, comma + 1
  end
end

-- Packed spec -> its parsed fields, or false when its algorithm is unknown (or its window malformed). As a function library
-- this table outlives the call, so a rule's spec is parsed once, not on every call (as a script
-- it starts empty each call). Bounded: emptied when it reaches SPEC_CACHE_MAX entries.
local SPEC_CACHE, SPEC_CACHED, SPEC_CACHE_MAX = {}, 0, 4096

local function spec_of(packed)
  local spec = SPEC_CACHE[packed]
  if spec ~= nil then return spec end
  local f = {}
  split_into(packed, f, 1)
  if not ALGORITHMS[f[1]] then return false end
  local window = tonumber(f[3])
  if f[1] == "fp" then window = fp_bounds(f[3]) end -- a calendar rule: its periods' bounds
  if not window then return false end
  spec = { code = f[1], check = ALGORITHMS[f[1]], limit = tonumber(f[2]), window = window, burst = tonumber(f[4]),
    cost = tonumber(f[5]), enforce = f[6] == "1", field = f[7] or "", block = tonumber(f[8]), pfield = f[9] or "" }
  if SPEC_CACHED >= SPEC_CACHE_MAX then SPEC_CACHE, SPEC_CACHED = {}, 0 end
  SPEC_CACHE[packed], SPEC_CACHED = spec, SPEC_CACHED + 1
  return spec
end

-- Per rule of the request being evaluated (every entry is written before it is read): as a
-- function library these tables are reused by every call instead of built anew.
local out = {}
local specs, keys, penalized = {}, {}, {}
-- Spec number -> its parsed fields (spec_of), reused likewise; numbers above the call's spec count
-- are refused, so an entry of an earlier call is never read.
local SPECS = {}
-- The requests' fields (R), the keys to read (WANTED, up to its count), and
-- which key numbers are queued already (SEEN[k] == CALL): reused likewise, as only what this call
-- wrote is read (CALL counts calls, so a mark of an earlier call never matches).
local R, WANTED, SEEN, CALL = {}, {}, {}, 0

-- Request fields that are numbers (the TTL floor, rule counts, spec and key numbers: the same few
-- small integers call after call) -> their value. As a function library this table outlives the
-- call: a table read costs a tenth of a tonumber (a C call parsing the digits twice). Bounded like
-- SPEC_CACHE.
local NUMS, NUMS_N, NUMS_MAX = {}, 0, 4096

local function to_num(text)
  local v = tonumber(text)
  if v then
    if NUMS_N >= NUMS_MAX then NUMS, NUMS_N = {}, 0 end
    NUMS[text], NUMS_N = v, NUMS_N + 1
  end
  return v
end

-- One request's argument (see ARGV above) into R from index at, its numbers converted: one pattern
-- match for the head and one per rule (a find and a sub per field cost three times as much). Returns
-- the index after its last field, or nil when the argument is malformed.
local HEAD_FIELDS = "^([^,]*),([^,]*),([^,]*),([^,]*),([^,]*)()"
local RULE_FIELDS = "^,([^,]*),([^,]*),([^,]*)()"
local function read_request(s, at)
  local now, commit, lease, ttl_floor, n, pos = match(s, HEAD_FIELDS)
  if not pos then return nil end
  n = NUMS[n] or to_num(n)
  ttl_floor = NUMS[ttl_floor] or to_num(ttl_floor)
  if not n or not ttl_floor then return nil end
  R[at], R[at + 1], R[at + 2], R[at + 3], R[at + 4] = now, commit, lease, ttl_floor, n
  at = at + 5
  for _ = 1, n do
    local j, k, sk, after = match(s, RULE_FIELDS, pos)
    if not after then return nil end
    j, k, sk = NUMS[j] or to_num(j), NUMS[k] or to_num(k), NUMS[sk] or to_num(sk)
    if not j or not k or not sk then return nil end
    R[at], R[at + 1], R[at + 2] = j, k, sk
    at, pos = at + 3, after
  end
  if pos ~= #s + 1 then return nil end
  return at
end

--!body: what runs per call; above it, what a function library runs once (decideScript.ts)
begin_call()
local spec_count = tonumber(ARGV[1])
if not spec_count then return redis.error_reply("ERR sluice: malformed spec count " .. tostring(ARGV[1])) end

local HEAD = 5 -- per request: now, commit, lease id, ttl floor, n
local STRIDE = 10 -- values kept per rule: what a check returns (see preamble.lua)

-- The specs, parsed once per call (once per library load when cached, see spec_of).
for j = 1, spec_count do
  local spec = spec_of(ARGV[1 + j])
  if not spec then
    return redis.error_reply("ERR sluice: unknown algorithm code or malformed window in spec " .. tostring(ARGV[1 + j]))
  end
  SPECS[j] = spec
end
if spec_count == 1 and ARGV[3] == "1" and KEYS[1] then
  local sp, one = SPECS[1], ARGV[4]
  if sp.block == 0 and sp.code ~= "sl" and sp.code ~= "cc" then
    if one == ONE_RULE then return decide_one(KEYS[1], sp, "", true, 0) end
    if sub(one, -8) == ONE_RULE_TAIL and read_request(one, 1) == 9 then
      return decide_one(KEYS[1], sp, R[1], R[2] == "1", R[4])
    end
  end
end
local REQUESTS_AT = 2 + spec_count
local request_count = tonumber(ARGV[REQUESTS_AT])

-- The requests' fields, one after another in R, read below as they were sent; the numbers among
-- them converted once, here (read_request; a request with a field that should be a number and is
-- not is refused here, before anything is read or written).
local R_END = 1 -- the index after the call's last field
for r = 1, request_count do
  R_END = read_request(ARGV[REQUESTS_AT + r], R_END)
  if not R_END then return redis.error_reply("ERR sluice: malformed request fields in " .. tostring(ARGV[REQUESTS_AT + r])) end
end

-- Every subject key of the call in one read (sorted sets excluded).
CALL = CALL + 1
do
  local wanted = 0
  local arg = 1
  for _ = 1, request_count do
    local n = R[arg + 4]
    arg = arg + HEAD
    for i = 0, n - 1 do
      local a = arg + 3 * i
      local j, k, sk = R[a], R[a + 1], R[a + 2]
      local sp = j and j <= spec_count and SPECS[j]
      local code = sp and sp.code
      if k and KEYS[k] and code ~= "sl" and code ~= "cc" and SEEN[k] ~= CALL then
        SEEN[k] = CALL
        wanted = wanted + 1
        WANTED[wanted] = KEYS[k]
      end
      if sk ~= 0 then
        -- Refused here, before anything is read or written.
        if sp and code ~= "sl" then
          return redis.error_reply("ERR sluice: only a sliding_log rule has a second key (its penalty's)")
        end
        if KEYS[sk] and SEEN[sk] ~= CALL then
          SEEN[sk] = CALL
          wanted = wanted + 1
          WANTED[wanted] = KEYS[sk] -- the subject key holding its penalty
        end
      end
    end
    arg = arg + 3 * n
  end
  -- Fields missing (or extra) would read R's entries of an earlier call.
  if arg ~= R_END then return redis.error_reply("ERR sluice: malformed request fields") end
  load_subjects(WANTED, wanted)
end

local reply = {}
local arg = 1
local redis_now, redis_now_us
local explicit_time = false -- a request of the call brought its own time (see store_subject)
local previous_committed = false

for _ = 1, request_count do
  local now, now_us
  if R[arg] == "" then
    if not redis_now then redis_now, redis_now_us = now_from("") end
    now, now_us = redis_now, redis_now_us
  else
    now, now_us = now_from(R[arg])
    explicit_time = true
  end
  local wants_commit = R[arg + 1] == "1" or (R[arg + 1] == "2" and previous_committed)
  local lease = R[arg + 2]
  local ttl_floor = R[arg + 3]
  local n = R[arg + 4]
  arg = arg + HEAD

  local every_enforce_allows = true
  for i = 1, n do
    local j = R[arg + 3 * i - 3]
    local k = R[arg + 3 * i - 2] and KEYS[R[arg + 3 * i - 2]]
    local sp = j and j <= spec_count and SPECS[j]
    if not sp or not k then
      return redis.error_reply("ERR sluice: no rule spec or key " .. tostring(R[arg + 3 * i - 3]) .. "/" .. tostring(R[arg + 3 * i - 2]))
    end
    local pk = k -- where its penalty is kept: the subject key, or a sliding_log rule's second key
    local sk = R[arg + 3 * i - 1]
    if sk ~= 0 then pk = KEYS[sk] end
    specs[i], keys[i] = sp, k
    local o = (i - 1) * STRIDE
    out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5], out[o + 6], out[o + 7], out[o + 8], out[o + 9], out[o + 10] =
      sp.check(k, sp.field, now, now_us, sp.limit, sp.window, sp.burst, sp.cost)
    penalized[i] = false
    if sp.code == "cc" and ((wants_commit and lease == "") or sp.block > 0) then
      return redis.error_reply("ERR sluice: a concurrency rule needs a lease id and has no penalty")
    end
    if sp.block > 0 then
      if sp.code == "sl" and pk == k then
        return redis.error_reply("ERR sluice: no penalty key for a sliding_log rule with a penalty")
      end
      penalized[i] = apply_penalty(out, o, pk, sp.pfield, now, sp.block, wants_commit, ttl_floor)
    end
    if sp.enforce and not out[o + 1] then every_enforce_allows = false end
  end

  local committed = wants_commit and every_enforce_allows
  previous_committed = committed
  local r = #reply
  reply[r + 1] = now
  reply[r + 2] = committed and 1 or 0
  r = r + 2
  for i = 1, n do
    local o = (i - 1) * STRIDE
    local allowed = out[o + 1]
    local v = o + 2 -- the "before" view
    local sp = specs[i]
    if committed and allowed then
      if sp.cost > 0 then
        local commit = COMMITS[sp.code]
        if commit then
          commit(keys[i], now, now_us, sp.window, sp.cost, ttl_floor, lease)
        else
          local ttl = out[o + 10]
          if ttl < ttl_floor then ttl = ttl_floor end
          put_state(keys[i], sp.field, out[o + 9], ttl)
        end
      end
      v = o + 5 -- the "after" view
    end
    reply[r + 1] = allowed and 1 or (penalized[i] and 2 or 0)
    -- floor(remaining), ceil(reset), ceil(retry), ceil(next), inline (see the preamble, above now_from)
    local left, reset, retry, nxt = out[v + 1], -out[v + 2], -out[o + 2], -out[v + 3]
    reply[r + 2] = left - left % 1
    reply[r + 3] = -(reset - reset % 1)
    reply[r + 4] = -(retry - retry % 1)
    reply[r + 5] = -(nxt - nxt % 1)
    r = r + 5
  end
  arg = arg + 3 * n
end
store_subjects(not explicit_time and redis_now or nil)
return reply
