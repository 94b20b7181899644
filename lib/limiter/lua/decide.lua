--[[
  decide: one atomic decision over every rule that applies to one request.

  KEYS[i]  the counter key of rule i. All keys of one call carry the same hash tag ({tenant}),
           so they live in one Redis Cluster slot.
  ARGV[1]  now in epoch ms, or "" to read Redis TIME
  ARGV[2]  "1": consume when every enforce rule allows; "0": peek, never write
  ARGV[3 + 6*(i-1) ...] rule i: algorithm code (fw|sw|sl|tb|gc), limit, window ms, burst, cost,
           "1" for an enforce rule or "0" for a shadow rule

  Reply: { now_ms, committed (0|1),
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

local now, now_us = now_from(ARGV[1])
local wants_commit = ARGV[2] == "1"
local FIELDS = 6
local checks, enforce = {}, {}
local every_enforce_allows = true

for i = 1, #KEYS do
  local base = 2 + (i - 1) * FIELDS
  local check = ALGORITHMS[ARGV[base + 1]]
  if not check then
    return redis.error_reply("ERR sluice: unknown algorithm code " .. tostring(ARGV[base + 1]))
  end
  local c = check(KEYS[i], now, now_us, tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]),
    tonumber(ARGV[base + 4]), tonumber(ARGV[base + 5]))
  checks[i] = c
  enforce[i] = ARGV[base + 6] == "1"
  if enforce[i] and not c.allowed then every_enforce_allows = false end
end

local committed = wants_commit and every_enforce_allows
local reply = { now, committed and 1 or 0 }
for i = 1, #KEYS do
  local c = checks[i]
  local view = c.before
  if committed and c.allowed then
    if c.commit then c.commit() end
    view = c.after
  end
  local n = #reply
  reply[n + 1] = c.allowed and 1 or 0
  reply[n + 2] = math.floor(view.remaining)
  reply[n + 3] = math.ceil(view.reset)
  reply[n + 4] = math.ceil(c.retry)
  reply[n + 5] = math.ceil(view.next)
end
return reply
