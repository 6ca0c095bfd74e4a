/* Unit test of ir/symmap.c: the address map against a plain array, through puts, gets and removals
 * in a random order (removal moves the keys probed past a hole back into it; the REPL removes the
 * constructors that a redefinition replaces). */
#include <stdlib.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"

enum { N = 4000 };

int main(void) {
  GC_INIT();
  static char keys[N][16]; /* distinct addresses, 16 bytes apart as GC objects are */
  static void *want[N];
  IrPtrMap m = {0};
  srand(29);
  bool agree = true;
  size_t count = 0;
  for (int step = 0; step < 200000 && agree; step++) {
    int k = rand() % N;
    if (rand() % 3) {
      if (!want[k]) count++;
      want[k] = &keys[(k + step) % N];
      ir_ptrmap_put(&m, keys[k], want[k]);
    } else {
      if (want[k]) count--;
      want[k] = NULL;
      ir_ptrmap_remove(&m, keys[k]);
    }
    if (step % 997 == 0 || step > 199000)
      for (int i = 0; i < N && agree; i++) agree = ir_ptrmap_get(&m, keys[i]) == want[i];
    agree = agree && m.count == count;
  }
  tap_ok(agree, "200,000 random puts and removals of 4,000 keys: every get agrees with an array, and the count");
  ir_ptrmap_remove(&m, "not a key");
  tap_ok(m.count == count, "removing a key that is not there changes nothing");
  IrPtrMap empty = {0};
  ir_ptrmap_remove(&empty, keys[0]);
  tap_ok(empty.cap == 0, "nor in a map that never had one");
  return tap_done();
}
