--[[
  Penalties (rule field blockMs); twin of lib/limiter/algorithms/penalty.ts, which states the
  contract. A penalty is the epoch ms of its end, stored like a compact state (base 64) under the
  field "b<ref>" of the subject key of the rule's subject (for sliding_log, the subject key beside
  its sorted set), so it is read by the call's MGET and written by its one SET PX: no key or round
  trip of its own. The key's TTL covers it (put_state with blockMs).
  Defines:
    penalty_left(key, field, now, block) -> ms left of the penalty in force, 0 when none; an ended
      penalty is marked false, so it is dropped if the key is written this call (store_subjects)
    apply_penalty(out, o, key, field, now, block, commit, ttl_floor) -> true when a penalty was in
      force; otherwise starts one when the rule's own check refused a request to be charged. Edits
      the check's values in `out` at offset o (allowed, retry, the "before" view) in place.
]]
-- A stored penalty that is over (its end has come, or it is not an end at all): also the PASSED
-- (preamble.lua) of a penalty field, "b".
local function penalty_over(stored, now)
  return type(stored) ~= "number" or stored <= now
end
PASSED[98] = penalty_over

local function penalty_left(key, field, now, block)
  local rec = subject_of(key)
  local stored = rec[field]
  if not stored then return 0 end
  if penalty_over(stored, now) then
    rec[field] = false
    return 0
  end
  local left = stored - now
  if left > block then left = block end
  return left
end

local function apply_penalty(out, o, key, field, now, block, commit, ttl_floor)
  local left = penalty_left(key, field, now, block)
  local penalized = left > 0
  if not penalized then
    if out[o + 1] or not commit then return false end
    left = block
    local ttl = ttl_ms(block)
    if ttl < ttl_floor then ttl = ttl_floor end
    put_state(key, field, now + block, ttl)
  end
  out[o + 1] = false
  if out[o + 2] >= 0 and out[o + 2] < left then out[o + 2] = left end
  out[o + 3] = 0
  if out[o + 4] < left then out[o + 4] = left end
  if out[o + 5] < left then out[o + 5] = left end
  return penalized
end
