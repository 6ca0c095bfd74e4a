(* Counts the solutions of n-queens for n = 10 on immutable cons lists (OCaml's own lists): a
   placement is the list of the queens' columns, latest row first; each column 1..n is tried for the
   next row, kept if safe against the list, and complete placements are counted. Prints 724. *)

(* column c is safe against the queens qs whose first is d rows above it (tail-recursive) *)
let rec safe c d qs = match qs with
  | [] -> true
  | q :: t -> if q = c || q - c = d || c - q = d then false else safe c (d + 1) t

(* the number of ways to complete the placement qs of k queens *)
let rec count n k qs = if k = n then 1 else tries n k qs 1

(* the solutions with the next queen in column c, c + 1, ..., n *)
and tries n k qs c =
  if c > n then 0
  else
    let here = if safe c 1 qs then count n (k + 1) (c :: qs) else 0 in
    here + tries n k qs (c + 1)

let () = print_endline (string_of_int (count 10 0 []))
