--[[
  traceAppend: appends a chunk of request-trace entries to one tenant's stream for the rule
  simulator (lib/monitoring/record/requestTrace.ts states the layout), with the stream's bounds and
  TTL, in one atomic call: a chunk cut off half-way never runs, so no key is left without its TTL.
  One call per chunk instead of one XADD command per entry: the writer builds, sends and parses one
  command for hundreds of entries (lib/monitoring/record/traceAppendScript.ts).

  KEYS   KEYS[1] the tenant's trace stream (`{T}mq`: the tenant's hash tag)
  ARGV   ARGV[1] MAXLEN, kept approximately (~); ARGV[2] MINID in epoch ms, trimmed approximately;
         ARGV[3] the key's TTL in ms; ARGV[4..] the entries' values (field `e`), oldest first
  Reply  the number of entries appended
  Stream ids are Redis's own (`*`): its time, as the single XADD commands before this script.
]]
local key = KEYS[1]
local maxLen = ARGV[1]
for i = 4, #ARGV do
  redis.call("XADD", key, "MAXLEN", "~", maxLen, "*", "e", ARGV[i])
end
redis.call("XTRIM", key, "MINID", "~", ARGV[2])
redis.call("PEXPIRE", key, ARGV[3])
return #ARGV - 3
