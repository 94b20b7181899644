--[[
  token_bucket ("tb"): capacity `burst`, `limit` units refill per `window` ms, fractional refill.
  Computed and stored as a theoretical arrival time (tat.lua): the time the bucket is full again.
]]
ALGORITHMS["tb"] = tat_check
PASSED[116] = tat_passed -- "t", its field char (lib/limiter/keys.ts)
