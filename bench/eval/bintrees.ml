(* The Benchmarks Game's binary-trees at max depth 16 (min depth 4), summed into one number: the
   check of a stretch tree of depth 17, the checks of 2^(16 - d + 4) trees of depth d for
   d = 4, 6, ..., 16, and the check of a long-lived tree of depth 16 built before them. The tree of
   depth 0 is Node (Leaf, Leaf); check counts the nodes. Prints 14985902. *)
type tree = Leaf | Node of tree * tree

let rec make d = if d = 0 then Node (Leaf, Leaf) else Node (make (d - 1), make (d - 1))

let rec check t = match t with
  | Leaf -> 0
  | Node (l, r) -> 1 + check l + check r

(* acc + the checks of i fresh trees of depth d (tail-recursive) *)
let rec trees i d acc = if i = 0 then acc else trees (i - 1) d (acc + check (make d))

(* acc + the iterations for depths d, d + 2, ..., 16, starting with i trees (tail-recursive) *)
let rec depths d i acc = if d > 16 then acc else depths (d + 2) (i / 4) (trees i d acc)

let () =
  let stretch = check (make 17) in
  let long_lived = make 16 in
  let total = depths 4 65536 stretch in
  print_endline (string_of_int (total + check long_lived))
