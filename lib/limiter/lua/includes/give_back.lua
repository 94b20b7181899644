--[[
  Give-backs of count by response (rule field chargeOn): undoing one reservation a decision made
  (lib/limiter/giveBackScript.ts states the contract). Included by give_back.lua after the
  algorithms, whose state formats (fw_decode and fw_encode, sw_decode and sw_encode, entry_cost,
  the TAT helpers) and the preamble's subject states it uses. Defines GIVE_BACKS: code ->
    give_back(key, field, reserved, now, limit, window, burst, cost, tat_until)
  which gives `cost` units reserved at `reserved` (epoch ms: the reserving call's now) back, and
  returns true, or returns false when there is nothing left to give back (no state).
  Where a state moved on since the reservation, a unit is given back only where it still counts,
  never into a later window:
  - fixed_window: only while the state is still the reservation's window (after it rolled over the
    reserved unit no longer counts anyway);
  - sliding_window: into the reservation's window, whether it is still the current one or now the
    previous one (whose weight still counts); not once it is older;
  - sliding_log: one entry of the reservation's time and cost is removed, if still in the set;
  - token_bucket, gcra: the TAT moves back by cost * T, never before now, and only before
    `tat_until`, the TAT the reservation left (rounded up to a whole ms): until then the bucket
    never was full since the reservation, so the reserved units are still in the TAT; after it,
    their refill may already have been lost to a full bucket, and a give-back could credit twice.
  Counts never go below 0. A give-back never extends a key's life: the key keeps its PTTL.
]]
local GIVE_BACKS = {}

-- Writes a rule's state back with the key's remaining life.
local function put_back(key, field, value)
  local left = rcall("PTTL", key)
  if left < 1 then left = 1 end
  put_state(key, field, value, left)
end

GIVE_BACKS["fw"] = function(key, field, reserved, now, limit, window, burst, cost)
  local raw = state_of(key, field)
  if not raw then return false end
  local w = floor(reserved / window)
  local sw, sc = fw_decode(raw)
  if sw ~= w or sc <= 0 then return false end
  local count = sc - cost
  if count < 0 then count = 0 end
  put_back(key, field, fw_encode(w, count))
  return true
end

-- A calendar rule: only while the state is still the period the reservation was made in.
GIVE_BACKS["fp"] = function(key, field, reserved, now, limit, bounds, burst, cost)
  local raw = state_of(key, field)
  if not raw then return false end
  local start = fp_period(bounds, reserved)
  local w = floor(start / 1000)
  local sw, sc = fw_decode(raw)
  if sw ~= w or sc <= 0 then return false end
  local count = sc - cost
  if count < 0 then count = 0 end
  put_back(key, field, fw_encode(w, count))
  return true
end

GIVE_BACKS["sw"] = function(key, field, reserved, now, limit, window, burst, cost)
  local raw = state_of(key, field)
  if not raw then return false end
  local w = floor(reserved / window)
  local sw, sc, sp = sw_decode(raw)
  if sw == w and sc > 0 then
    sc = sc - cost
    if sc < 0 then sc = 0 end
  elseif sw == w + 1 and sp > 0 then
    sp = sp - cost
    if sp < 0 then sp = 0 end
  else
    return false
  end
  put_back(key, field, sw_encode(sw, sc, sp))
  return true
end

GIVE_BACKS["sl"] = function(key, field, reserved, now, limit, window, burst, cost)
  local members = rcall("ZRANGE", key, reserved, reserved, "BYSCORE")
  for i = 1, #members do
    if entry_cost(members[i]) == cost then
      rcall("ZREM", key, members[i])
      return true
    end
  end
  return false
end

local function tat_give_back(key, field, reserved, now, limit, window, burst, cost, tat_until)
  if now >= tat_until then return false end
  local raw = state_of(key, field)
  if not raw then return false end
  local q = tat_denominator(limit, window)
  local ahead = tat_ahead(raw, now, q)
  if ahead <= 0 then return false end
  ahead = ahead - cost * window / limit
  if ahead < 0 then ahead = 0 end
  put_back(key, field, tat_state(now, ahead, q))
  return true
end
GIVE_BACKS["tb"] = tat_give_back
GIVE_BACKS["gc"] = tat_give_back
