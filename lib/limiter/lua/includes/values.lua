--[[
  How subject key values are written (included by preamble.lua, whose locals it uses: sub, char,
  byte, format): compact states in base 64 (enc64, dec64), and the one-field integer form
  (integer_form, parse_integer_form; the format is in preamble.lua's header).
]]
-- Base 64 of a whole number below 2^53 (a compact state), and back. Digits are computed, not
-- looked up: this file runs on every call (EVAL), and building a 64-entry table each time cost
-- more than a whole one-rule decision.
local B64 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"

-- The byte of digit d (0..63): "0"-"9", "A"-"Z", "a"-"z", "-", "_".
local function b64_byte(d)
  if d < 10 then return 48 + d elseif d < 36 then return 55 + d elseif d < 62 then return 61 + d elseif d == 62 then return 45 end
  return 95
end

local function enc64(n)
  if n < 64 then return sub(B64, n + 1, n + 1) end
  -- Digits into locals, then one string (a string per digit cost more than the rest of a check).
  local d1, d2, d3, d4, d5, d6, d7, d8, d9 = n % 64
  n = (n - d1) / 64
  d2 = n % 64; n = (n - d2) / 64
  if n == 0 then return char(b64_byte(d2), b64_byte(d1)) end
  d3 = n % 64; n = (n - d3) / 64
  if n == 0 then return char(b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d4 = n % 64; n = (n - d4) / 64
  if n == 0 then return char(b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d5 = n % 64; n = (n - d5) / 64
  if n == 0 then return char(b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d6 = n % 64; n = (n - d6) / 64
  if n == 0 then return char(b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d7 = n % 64; n = (n - d7) / 64
  if n == 0 then return char(b64_byte(d7), b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d8 = n % 64; n = (n - d8) / 64
  if n == 0 then return char(b64_byte(d8), b64_byte(d7), b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  d9 = n % 64; n = (n - d9) / 64
  if n == 0 then return char(b64_byte(d9), b64_byte(d8), b64_byte(d7), b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1)) end
  -- 2^54 and above (never a compact state): the general loop.
  local out = char(b64_byte(d9), b64_byte(d8), b64_byte(d7), b64_byte(d6), b64_byte(d5), b64_byte(d4), b64_byte(d3), b64_byte(d2), b64_byte(d1))
  while n > 0 do
    local d = n % 64
    out = char(b64_byte(d)) .. out
    n = (n - d) / 64
  end
  return out
end

-- The value of the base-64 digits s[i..j], or nil when one is not a digit (inline tests: a
-- function call per digit cost a third of the decode).
local function dec64(s, i, j)
  local n = 0
  for k = i, j do
    local b = byte(s, k)
    if b >= 97 then
      if b > 122 then return nil end
      n = n * 64 + b - 61
    elseif b >= 65 then
      if b <= 90 then n = n * 64 + b - 55 elseif b == 95 then n = n * 64 + 63 else return nil end
    elseif b >= 48 then
      if b > 57 then return nil end
      n = n * 64 + b - 48
    elseif b == 45 then
      n = n * 64 + 62
    else
      return nil
    end
  end
  return n
end

-- The one-field integer form (see the header): a field char's digit, and back.
local FIELD_DIGIT = { f = 1, w = 2, t = 3, g = 4, b = 5 }
local FIELD_CHAR = { "f", "w", "t", "g", "b" }
local BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"

-- A record from the one-field integer form, or nil when raw is not one.
local function parse_integer_form(raw)
  local len = #raw
  local last = byte(raw, len) - 48
  local char_digit = last % 5 + 1
  local ref_digits = (last - char_digit + 1) / 5 + 1
  if last < 0 or last > 9 or len < ref_digits + 2 then return nil end
  local ref, state = tonumber(sub(raw, len - ref_digits, len - 1)), tonumber(sub(raw, 1, len - 1 - ref_digits))
  if not ref or not state then return nil end
  local field
  if ref < 36 then
    field = FIELD_CHAR[char_digit] .. sub(BASE36, ref + 1, ref + 1)
  else
    local low = ref % 36
    field = FIELD_CHAR[char_digit] .. sub(BASE36, (ref - low) / 36 + 1, (ref - low) / 36 + 1) .. sub(BASE36, low + 1, low + 1)
  end
  return { field, [field] = state, T = 0 }
end

-- The one-field integer form of field = v, or nil when it has none: v a compact state (a whole
-- number), the field's ref base 36 from 0 to 99 without a leading zero (so that it reads back as
-- the same ref).
local function integer_form(field, v)
  local char_digit = FIELD_DIGIT[sub(field, 1, 1)]
  if not char_digit or type(v) ~= "number" or v < 0 or v % 1 ~= 0 then return nil end
  if #field > 3 or (#field == 3 and byte(field, 2) == 48) then return nil end
  local ref = tonumber(sub(field, 2), 36)
  if not ref or ref > 99 then return nil end
  if ref < 10 then return format("%d%d%d", v, ref, char_digit - 1) end
  return format("%d%d%d", v, ref, 4 + char_digit)
end
