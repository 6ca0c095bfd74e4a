-- The Benchmarks Game's binary-trees at max depth 16 (min depth 4), summed into one number: the check
-- of a stretch tree of depth 17, the checks of 2^(16 - d + 4) trees of depth d for d = 4, 6, ..., 16,
-- and the check of a long-lived tree of depth 16 built before them. A node is a table {l, r} and nil
-- is the empty tree; the tree of depth 0 is {nil, nil}; check counts the nodes. `return f(...)` is a
-- proper tail call in Lua. Prints 14985902.
local Leaf = nil

local function make(d)
  if d == 0 then return {Leaf, Leaf} else return {make(d - 1), make(d - 1)} end
end

local function check(t)
  if t == Leaf then return 0 else return 1 + check(t[1]) + check(t[2]) end
end

-- acc + the checks of i fresh trees of depth d
local function trees(i, d, acc)
  if i == 0 then return acc else return trees(i - 1, d, acc + check(make(d))) end
end

-- acc + the iterations for depths d, d + 2, ..., 16, starting with i trees
local function depths(d, i, acc)
  if d > 16 then return acc else return depths(d + 2, i // 4, trees(i, d, acc)) end
end

local stretch = check(make(17))
local long_lived = make(16)
local total = depths(4, 65536, stretch)
print(total + check(long_lived))
