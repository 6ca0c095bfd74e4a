(* Builds the cons list [1, ..., 1000000] with a tail-recursive accumulator loop, doubles every
   element with a direct (non-tail) recursive map, 1,000,000 calls deep, then sums it with a
   tail-recursive foldl that takes the addition as a function. OCaml ints are 63-bit, wide enough
   for the int64 sum. The bytecode interpreter's stack is capped at 1M words (8 MiB) by default, too
   small for map, so it is raised to 128M words (1 GiB, the other versions' stack); native code runs
   on the system stack. Prints 1000001000000. *)
type l = Nil | Cons of int * l

(* build n acc = [1, ..., n] ++ acc, consing n first *)
let rec build n acc = if n = 0 then acc else build (n - 1) (Cons (n, acc))

let rec map f l = match l with
  | Nil -> Nil
  | Cons (h, t) -> let h' = f h in Cons (h', map f t)  (* f h first: constructor arguments go right to left *)

let rec foldl f z l = match l with
  | Nil -> z
  | Cons (h, t) -> foldl f (f z h) t

let () = Gc.set { (Gc.get ()) with Gc.stack_limit = 1 lsl 27 }

let () = print_endline (string_of_int (foldl (fun x y -> x + y) 0 (map (fun x -> x * 2) (build 1000000 Nil))))
