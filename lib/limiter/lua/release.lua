--[[
  release: gives back the slots one request held under its concurrency rules (its lease), once the
  request is over (lib/limiter/algorithms/concurrency.ts states the contract).

  KEYS   the lease sorted sets the request took a slot in (one per concurrency rule; all carry the
         same {tenant} hash tag, so they share one Redis Cluster slot)
  ARGV   ARGV[1] the lease id (the member decide.lua added);
         ARGV[2] now in epoch ms, or "" to read Redis TIME (tests pass the time their decisions used)
  Reply  how many of KEYS held the lease unexpired (score > now): slots given back now. A lease
         found expired (the request outlived its lease length; its slot was free already) or gone
         is not counted; either way the member is removed.
  Removing a lease never extends a key's life; an emptied set is deleted by ZREM itself.
]]
local now
if ARGV[2] ~= nil and ARGV[2] ~= "" then
  now = tonumber(ARGV[2])
else
  local t = redis.call("TIME")
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local released = 0
for i = 1, #KEYS do
  local expiry = redis.call("ZSCORE", KEYS[i], ARGV[1])
  if expiry then
    redis.call("ZREM", KEYS[i], ARGV[1])
    if tonumber(expiry) > now then released = released + 1 end
  end
end
return released
