--[[
  How subject key values are written (included by preamble.lua, whose locals it uses: sub, char,
  byte, format): compact states in base 64 (enc64, dec64), and the one-field integer form
  (integer_form, parse_integer_form; the format is in preamble.lua's header).
]]
-- Base 64 of a whole number below 2^53 (a compact state), and back, through two lookup tables:
-- DIGIT_BYTE[d + 1] is the byte of digit d ("0"-"9", "A"-"Z", "a"-"z", "-", "_"), BYTE_DIGIT[b]
-- the digit of byte b. Built on first use: as a function library once; as a script (which runs this
-- file on every call) only by calls that meet a key of several fields. A lookup costs a third of
-- the comparisons and function call it replaces, on every digit of every field read or written.
local DIGIT_BYTE, BYTE_DIGIT

local function build_digit_tables()
  DIGIT_BYTE = {
    48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78,
    79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106,
    107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 45, 95
  }
  BYTE_DIGIT = {
    [48] = 0, [49] = 1, [50] = 2, [51] = 3, [52] = 4, [53] = 5, [54] = 6, [55] = 7, [56] = 8,
    [57] = 9, [65] = 10, [66] = 11, [67] = 12, [68] = 13, [69] = 14, [70] = 15, [71] = 16,
    [72] = 17, [73] = 18, [74] = 19, [75] = 20, [76] = 21, [77] = 22, [78] = 23, [79] = 24,
    [80] = 25, [81] = 26, [82] = 27, [83] = 28, [84] = 29, [85] = 30, [86] = 31, [87] = 32,
    [88] = 33, [89] = 34, [90] = 35, [97] = 36, [98] = 37, [99] = 38, [100] = 39, [101] = 40,
    [102] = 41, [103] = 42, [104] = 43, [105] = 44, [106] = 45, [107] = 46, [108] = 47, [109] = 48,
    [110] = 49, [111] = 50, [112] = 51, [113] = 52, [114] = 53, [115] = 54, [116] = 55, [117] = 56,
    [118] = 57, [119] = 58, [120] = 59, [121] = 60, [122] = 61, [45] = 62, [95] = 63
  }
end

local function enc64(n)
  if not DIGIT_BYTE then build_digit_tables() end
  local E = DIGIT_BYTE
  -- Digits into locals, then one string (a string per digit cost more than the rest of a check).
  local d1 = n % 64
  n = (n - d1) / 64
  if n == 0 then return char(E[d1 + 1]) end
  local d2 = n % 64; n = (n - d2) / 64
  if n == 0 then return char(E[d2 + 1], E[d1 + 1]) end
  local d3 = n % 64; n = (n - d3) / 64
  if n == 0 then return char(E[d3 + 1], E[d2 + 1], E[d1 + 1]) end
  local d4 = n % 64; n = (n - d4) / 64
  if n == 0 then return char(E[d4 + 1], E[d3 + 1], E[d2 + 1], E[d1 + 1]) end
  local d5 = n % 64; n = (n - d5) / 64
  if n == 0 then return char(E[d5 + 1], E[d4 + 1], E[d3 + 1], E[d2 + 1], E[d1 + 1]) end
  local d6 = n % 64; n = (n - d6) / 64
  if n == 0 then return char(E[d6 + 1], E[d5 + 1], E[d4 + 1], E[d3 + 1], E[d2 + 1], E[d1 + 1]) end
  local d7 = n % 64; n = (n - d7) / 64
  if n == 0 then return char(E[d7 + 1], E[d6 + 1], E[d5 + 1], E[d4 + 1], E[d3 + 1], E[d2 + 1], E[d1 + 1]) end
  local d8 = n % 64; n = (n - d8) / 64
  if n == 0 then return char(E[d8 + 1], E[d7 + 1], E[d6 + 1], E[d5 + 1], E[d4 + 1], E[d3 + 1], E[d2 + 1], E[d1 + 1]) end
  local d9 = n % 64; n = (n - d9) / 64
  local out = char(E[d9 + 1], E[d8 + 1], E[d7 + 1], E[d6 + 1], E[d5 + 1], E[d4 + 1], E[d3 + 1], E[d2 + 1], E[d1 + 1])
  -- 2^54 and above (never a compact state): a digit at a time.
  while n > 0 do
    local d = n % 64
    out = char(E[d + 1]) .. out
    n = (n - d) / 64
  end
  return out
end

-- The value of the base-64 digits s[i..j], or nil when one is not a digit. Nine digits (a compact
-- state from 2^48 up, the usual one) are read in one call.
local function dec64(s, i, j)
  if not BYTE_DIGIT then build_digit_tables() end
  local D = BYTE_DIGIT
  if j - i == 8 then
    local a, b, c, d, e, f, g, h, k = byte(s, i, j)
    a, b, c, d, e, f, g, h, k = D[a], D[b], D[c], D[d], D[e], D[f], D[g], D[h], D[k]
    if not (a and b and c and d and e and f and g and h and k) then return nil end
    return ((((((((a * 64 + b) * 64 + c) * 64 + d) * 64 + e) * 64 + f) * 64 + g) * 64 + h) * 64 + k)
  end
  local n = 0
  for at = i, j do
    local d = D[byte(s, at)]
    if not d then return nil end
    n = n * 64 + d
  end
  return n
end

-- The one-field integer form (see the header): a field char's digit, and back.
local FIELD_DIGIT = { f = 1, w = 2, t = 3, g = 4, b = 5 }
local FIELD_CHAR = { "f", "w", "t", "g", "b" }
local BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"

-- The last digits of a one-field integer form (the ref's digits and the digit after them) -> its
-- field, and a field -> those digits (false: the field has no integer form). As a function library
-- these tables outlive the call, so a field's digits are worked out once, not on every read and
-- write. Bounded: emptied at FORMS_MAX entries each.
local FIELD_OF_TAIL, TAIL_OF_FIELD, TAILS_N, FIELDS_N, FORMS_MAX = {}, {}, 0, 0, 4096

-- A record from the one-field integer form, or nil when raw is not one.
local function parse_integer_form(raw)
  local len = #raw
  local last = byte(raw, len) - 48
  local char_digit = last % 5 + 1
  local ref_digits = (last - char_digit + 1) / 5 + 1
  if last < 0 or last > 9 or len < ref_digits + 2 then return nil end
  local tail = sub(raw, len - ref_digits, len)
  local field = FIELD_OF_TAIL[tail]
  if field == nil then
    local ref = tonumber(sub(tail, 1, ref_digits))
    if not ref then return nil end
    if ref < 36 then
      field = FIELD_CHAR[char_digit] .. sub(BASE36, ref + 1, ref + 1)
    else
      local low = ref % 36
      field = FIELD_CHAR[char_digit] .. sub(BASE36, (ref - low) / 36 + 1, (ref - low) / 36 + 1) .. sub(BASE36, low + 1, low + 1)
    end
    if TAILS_N >= FORMS_MAX then FIELD_OF_TAIL, TAILS_N = {}, 0 end
    FIELD_OF_TAIL[tail], TAILS_N = field, TAILS_N + 1
  end
  local state = tonumber(sub(raw, 1, len - 1 - ref_digits))
  if not state then return nil end
  return { field, [field] = state, T = 0 }
end

-- The digits a field's integer form ends with, or false when it has none: the field's ref base 36
-- from 0 to 99 without a leading zero (so that it reads back as the same ref).
local function tail_of(field)
  local tail = TAIL_OF_FIELD[field]
  if tail ~= nil then return tail end
  tail = false
  local char_digit = FIELD_DIGIT[sub(field, 1, 1)]
  if char_digit and #field <= 3 and not (#field == 3 and byte(field, 2) == 48) then
    local ref = tonumber(sub(field, 2), 36)
    if ref and ref <= 99 then
      if ref < 10 then tail = format("%d%d", ref, char_digit - 1) else tail = format("%d%d", ref, 4 + char_digit) end
    end
  end
  if FIELDS_N >= FORMS_MAX then TAIL_OF_FIELD, FIELDS_N = {}, 0 end
  TAIL_OF_FIELD[field], FIELDS_N = tail, FIELDS_N + 1
  return tail
end

-- The one-field integer form of field = v, or nil when it has none: v a compact state (a whole
-- number) and a field with an integer form (tail_of).
local function integer_form(field, v)
  if type(v) ~= "number" or v < 0 or v % 1 ~= 0 then return nil end
  local tail = tail_of(field)
  if not tail then return nil end
  return format("%d", v) .. tail
end
