-- Builds the cons list [1, ..., 1000000] (cells are tables {h, t}, nil is Nil) with a tail-recursive
-- accumulator loop, doubles every element with a direct (non-tail) recursive map, 1,000,000 calls
-- deep, then sums it with a tail-recursive foldl that takes the addition as a function.
-- `return f(...)` is a proper tail call in Lua. Lua 5.4 integers are 64-bit. Prints 1000001000000.
-- A Lua stack holds at most 1,000,000 slots (LUAI_MAXSTACK, fixed at compile time), about 200,000
-- map frames, so every 100,000 levels map continues its recursion on the stack of a fresh coroutine:
-- still one nested, non-tail call per element, on a stack made of 10 segments.
local Nil = nil
local SEGMENT = 100000

-- build(n, acc) = [1, ..., n] ++ acc, consing n first
local function build(n, acc)
  if n == 0 then return acc else return build(n - 1, {n, acc}) end
end

-- d counts the levels on the current coroutine's stack
local function map(f, l, d)
  if l == Nil then return Nil
  elseif d == SEGMENT then return coroutine.wrap(map)(f, l, 0)
  else return {f(l[1]), map(f, l[2], d + 1)} end
end

local function foldl(f, z, l)
  if l == Nil then return z else return foldl(f, f(z, l[1]), l[2]) end
end

print(foldl(function(x, y) return x + y end, 0, map(function(x) return x * 2 end, build(1000000, Nil), 0)))
