--[[
  gcra ("gc"): generic cell rate algorithm, emission interval T = window / limit, burst tolerance
  burst * T. The state is the theoretical arrival time (tat.lua).
]]
ALGORITHMS["gc"] = tat_check
PASSED[103] = tat_passed -- "g", its field char (lib/limiter/keys.ts)
