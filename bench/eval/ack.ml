(* ack(3, 9), the classic doubly recursive Ackermann function, on OCaml ints. Prints 4093. *)
let rec ack m n =
  if m = 0 then n + 1
  else if n = 0 then ack (m - 1) 1
  else ack (m - 1) (ack m (n - 1))

let () = print_endline (string_of_int (ack 3 9))
