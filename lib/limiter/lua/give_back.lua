--[[
  give_back: undoes the reservations one admitted request made under its rules counted by response
  (rule field chargeOn) whose answer's status class they do not list (lib/limiter/giveBackScript.ts
  states the contract; includes/give_back.lua how each algorithm gives back).

  KEYS   per rule, the key its reservation was made in: the subject key (fixed_window,
         sliding_window, token_bucket, gcra) or the rule's sorted set (sliding_log). All carry the
         same {tenant} hash tag, so they share one Redis Cluster slot.
  ARGV   ARGV[1] the reservation's time, epoch ms (the now of the decide call that reserved);
         ARGV[2] now in epoch ms, or "" to read Redis TIME;
         then per rule (KEYS[i] is ARGV[2 + i]'s) ONE argument, these fields joined by ",":
           algorithm code (fw|fp|sw|sl|tb|gc), its field in the subject key ("" for sliding_log),
           limit, window ms (fp: the periods' bounds "b1:b2:b3:b4", as decide.lua's), burst, cost, and the reservation's TAT rounded up to a whole ms
           (token_bucket and gcra; 0 for the others)
  Reply  per rule 1 when its units were given back, 0 when there was nothing left to give back
         (its window rolled over, its entry or state is gone, its TAT passed).
  Writes: each changed subject key once (SET PX with its remaining life); ZREM for sliding_log.
]]
--!include includes/preamble.lua
--!include includes/fixed_window.lua
--!include includes/sliding_window.lua
--!include includes/sliding_log.lua
--!include includes/tat.lua
--!include includes/give_back.lua

begin_call()
local reserved = tonumber(ARGV[1])
local now = now_from(ARGV[2])
if not reserved then return redis.error_reply("ERR sluice: malformed reservation time " .. tostring(ARGV[1])) end
local reply = {}
for i = 1, #KEYS do
  local code, field, limit, window, burst, cost, tat_until =
    match(ARGV[2 + i] or "", "^(%a%a),([%w_-]*),(%d+),([%d:]+),(%d+),(%d+),(%d+)$")
  local give_back = code and GIVE_BACKS[code]
  if code == "fp" then window = fp_bounds(window) else window = tonumber(window) end
  if not window then give_back = nil end
  if not give_back then return redis.error_reply("ERR sluice: malformed give-back rule " .. tostring(ARGV[2 + i])) end
  local given = give_back(KEYS[i], field, reserved, now, tonumber(limit), window, tonumber(burst),
    tonumber(cost), tonumber(tat_until))
  reply[i] = given and 1 or 0
end
store_subjects(ARGV[2] == "" and now or nil)
return reply
