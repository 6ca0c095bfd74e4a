-- Builds the cons list [1, ..., 1000000] (cells are tables {h, t}, nil is Nil) with a tail-recursive
-- accumulator loop, then sums it with a tail-recursive foldl that takes the addition as a function.
-- `return f(...)` is a proper tail call in Lua. Lua 5.4 integers are 64-bit. Prints 500000500000.
local Nil = nil

-- build(n, acc) = [1, ..., n] ++ acc, consing n first
local function build(n, acc)
  if n == 0 then return acc else return build(n - 1, {n, acc}) end
end

local function foldl(f, z, l)
  if l == Nil then return z else return foldl(f, f(z, l[1]), l[2]) end
end

print(foldl(function(x, y) return x + y end, 0, build(1000000, Nil)))
