-- Counts the solutions of n-queens for n = 10 on immutable cons lists (cells are tables {h, t}, nil
-- is Nil): a placement is the list of the queens' columns, latest row first; each column 1..n is
-- tried for the next row, kept if safe against the list, and complete placements are counted.
-- Prints 724.
local Nil = nil

-- column c is safe against the queens qs whose first is d rows above it (a proper tail call)
local function safe(c, d, qs)
  if qs == Nil then return true end
  local q = qs[1]
  if q == c or q - c == d or c - q == d then return false end
  return safe(c, d + 1, qs[2])
end

local tries

-- the number of ways to complete the placement qs of k queens
local function count(n, k, qs)
  if k == n then return 1 else return tries(n, k, qs, 1) end
end

-- the solutions with the next queen in column c, c + 1, ..., n
tries = function(n, k, qs, c)
  if c > n then return 0 end
  local here = 0
  if safe(c, 1, qs) then here = count(n, k + 1, {c, qs}) end
  return here + tries(n, k, qs, c + 1)
end

print(count(10, 0, Nil))
