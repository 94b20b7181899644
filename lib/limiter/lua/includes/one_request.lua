--[[
  The usual sequential call (included by decide.lua after the algorithms; uses preamble.lua's
  locals): one request of one rule on a subject key, with no penalty, decided
  by decide_one with the same steps as decide.lua's loops and the same reply, without the
  bookkeeping a batch needs. decide.lua's body sends such a call here (ONE_RULE, ONE_RULE_TAIL).
]]
-- One request, its rule spec 1 on key 1 with no second key (its fields before: now, commit, lease
-- id, TTL floor); the usual sequential call is ONE_RULE exactly (Redis time, commit, TTL floor 0).
local ONE_RULE_TAIL, ONE_RULE = ",1,1,1,0", ",1,,0,1,1,1,0"

-- decide.lua's steps for that request when its rule is on a subject key with no penalty, without
-- their bookkeeping (R's numbers, the key pass, the per-rule tables, the reply loop).
local function decide_one(key, sp, now_arg, wants_commit, ttl_floor)
  SUBJECTS[key] = parse_subject(rcall("GET", key))
  local now, now_us = now_from(now_arg)
  local allowed, retry, b1, b2, b3, a1, a2, a3, value, ttl =
    sp.check(key, sp.field, now, now_us, sp.limit, sp.window, sp.burst, sp.cost)
  local committed = wants_commit and (allowed or not sp.enforce)
  if committed and allowed then
    if sp.cost > 0 then
      if ttl < ttl_floor then ttl = ttl_floor end
      local rec = SUBJECTS[key]
      if rec[2] == nil and (rec[1] == nil or rec[1] == sp.field) then
        store_one(key, sp.field, value, ttl) -- the key holds no other field
      else
        put_state(key, sp.field, value, ttl)
        store_subjects(now_arg == "" and now or nil)
      end
    end
    b1, b2, b3 = a1, a2, a3 -- the "after" view
  end
  -- floor(b1), ceil(b2), ceil(retry), ceil(b3), inline (see the preamble, above now_from)
  b2, retry, b3 = -b2, -retry, -b3
  return { now, committed and 1 or 0, allowed and 1 or 0, b1 - b1 % 1, -(b2 - b2 % 1), -(retry - retry % 1), -(b3 - b3 % 1) }
end
