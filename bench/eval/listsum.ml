(* Builds the cons list [1, ..., 1000000] with a tail-recursive accumulator loop, then sums it with a
   tail-recursive foldl that takes the addition as a function. OCaml ints are 63-bit, wide enough for
   the int64 sum. Prints 500000500000. *)
type l = Nil | Cons of int * l

(* build n acc = [1, ..., n] ++ acc, consing n first *)
let rec build n acc = if n = 0 then acc else build (n - 1) (Cons (n, acc))

let rec foldl f z l = match l with
  | Nil -> z
  | Cons (h, t) -> foldl f (f z h) t

let () = print_endline (string_of_int (foldl (fun x y -> x + y) 0 (build 1000000 Nil)))
