--[[
  decide: atomic decisions for a batch of requests, evaluated one after another in one script
  call (a later request sees what an earlier one consumed). Each request is all-or-nothing over
  every rule that applies to it.

  KEYS     the counter keys of every rule of every request, in order. All keys of one call carry
           the same hash tag ({tenant}), so they live in one Redis Cluster slot.
  ARGV[1]  number of requests
  then per request:
           now in epoch ms, or "" to read Redis TIME (read once per call)
           "1": consume when every enforce rule allows; "0": peek, never write
           number of rules n
           per rule, 6 fields: algorithm code (fw|sw|sl|tb|gc), limit, window ms, burst, cost,
           "1" for an enforce rule or "0" for a shadow rule

  Reply: per request { now_ms, committed (0|1),
           then per rule: allowed (0|1), remaining, reset_ms, retry_after_ms (-1: never), next_ms }
  A refusal by any enforce rule commits nothing: no rule, shadow or not, consumes quota.
  A shadow rule that would refuse does not consume either (it counts as if it were enforced).
]]
--!include includes/preamble.lua
--!include includes/fixed_window.lua
--!include includes/sliding_window.lua
--!include includes/sliding_log.lua
--!include includes/token_bucket.lua
--!include includes/gcra.lua

local FIELDS = 6
local STRIDE = 10 -- values kept per rule: what a check returns (see preamble.lua)
local reply = {}
local arg, key = 2, 1
local redis_now, redis_now_us
local out = {}

for _ = 1, tonumber(ARGV[1]) do
  local now, now_us
  if ARGV[arg] == "" then
    if not redis_now then redis_now, redis_now_us = now_from("") end
    now, now_us = redis_now, redis_now_us
  else
    now, now_us = now_from(ARGV[arg])
  end
  local wants_commit = ARGV[arg + 1] == "1"
  local n = tonumber(ARGV[arg + 2])
  arg = arg + 3

  local every_enforce_allows = true
  for i = 1, n do
    local base = arg + (i - 1) * FIELDS
    local check = ALGORITHMS[ARGV[base]]
    if not check then
      return redis.error_reply("ERR sluice: unknown algorithm code " .. tostring(ARGV[base]))
    end
    local o = (i - 1) * STRIDE
    out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5], out[o + 6], out[o + 7], out[o + 8], out[o + 9], out[o + 10] =
      check(KEYS[key + i - 1], now, now_us, tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2]),
        tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4]))
    if ARGV[base + 5] == "1" and not out[o + 1] then every_enforce_allows = false end
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
      local base = arg + (i - 1) * FIELDS
      local cost = tonumber(ARGV[base + 4])
      if cost > 0 then
        local commit = COMMITS[ARGV[base]]
        if commit then
          commit(KEYS[key + i - 1], now, now_us, tonumber(ARGV[base + 2]), cost)
        else
          rcall("SET", KEYS[key + i - 1], out[o + 9], "PX", out[o + 10])
        end
      end
      v = o + 5 -- the "after" view
    end
    reply[r + 1] = allowed and 1 or 0
    reply[r + 2] = math.floor(out[v + 1])
    reply[r + 3] = math.ceil(out[v + 2])
    reply[r + 4] = math.ceil(out[o + 2])
    reply[r + 5] = math.ceil(out[v + 3])
    r = r + 5
  end
  arg = arg + n * FIELDS
  key = key + n
end
return reply
