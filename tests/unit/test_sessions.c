/* Unit test of repl/session.h's lifetime: what a session compiled is its own (an RtProgram, as its
 * module is), so a program that makes many sessions one after another (the whole-pipeline fuzzer
 * makes a fresh one every 2,000 inputs) keeps only the live one. The compiled definitions once
 * went into a table of the run time's global state, where they outlived their session: the fuzzer's
 * live heap grew by about 5 MB a session until the collector's 1 GB limit ended the run (seed 4711,
 * input 179,000). Also: a REPL session keeps only the newest of its bindings (`let %x`, `%it`). */
#include <fcntl.h>
#include <gc/gc.h>
#include <string.h>
#include <unistd.h>

#include "repl/session.h"
#include "tests/unit/tap.h"

static const char *chunk = "data Pair<a> { P : (a, a) -> Pair[a] }\n"
                           "def @twice(%x : int32) -> Pair[int32] { P(%x, %x * 2) }\n";

/* The bytes the collector finds live after a full collection. (Neither figure counts the memory
 * returned to the system: subtracting GC_get_unmapped_bytes too wrapped around once 100 MB had been
 * freed and unmapped.) */
static size_t live_bytes(void) {
  GC_gcollect();
  GC_gcollect();
  return GC_get_heap_size() - GC_get_free_bytes();
}

/* One session: the Prelude, a data type and a definition, and an expression run. */
static bool one_session(void) {
  Session s;
  session_init(&s);
  IrTFn *e = NULL;
  RtValue v;
  bool ok = session_load_prelude(&s) && session_load_chunk(&s, "<test>", chunk, strlen(chunk), false, NULL) &&
            session_check_expression(&s, "<test>", "@twice(21)", &e) && session_eval(&s, e, &v) && v.kind == RT_ADT;
  memset(&s, 0, sizeof s); /* forgotten, as the fuzzer forgets it */
  return ok;
}

/* Runs an input in s as the REPL does (its output thrown away); false if it failed. */
static bool repl_input(Session *s, const char *text) {
  fflush(stdout);
  int saved = dup(1), null = open("/dev/null", O_WRONLY);
  dup2(null, 1);
  IrTProgram *p = session_load_chunk(s, "<test>", text, strlen(text), false, NULL);
  bool ok = p && session_run(s, p, true);
  fflush(stdout);
  dup2(saved, 1);
  close(saved), close(null);
  return ok;
}

/* A REPL session whose inputs each show a 1 MB tensor, each becoming %it in place of the last, and
 * bind `%big` again and again: the values replaced are not kept (every shown value once stayed
 * reachable from the session's list of bindings). */
static void replaced_bindings(void) {
  Session s;
  session_init(&s);
  s.repl = true;
  bool ok = true;
  for (int i = 0; i < 5; i++) ok &= repl_input(&s, "ones(shape=[256, 1024])\nlet %big = zeros(shape=[256, 1024])\n");
  size_t after_few = live_bytes();
  for (int i = 0; i < 100; i++) ok &= repl_input(&s, "ones(shape=[256, 1024])\nlet %big = zeros(shape=[256, 1024])\n");
  ok &= repl_input(&s, "let %check = %it + %big");
  size_t after_many = live_bytes();
  tap_ok(ok, "210 inputs show or bind a 1 MB tensor, then use the newest %%it and %%big");
  if (!tap_ok(after_many < after_few + (16u << 20), "replaced bindings are freed (live: %zu kB after 10, %zu kB after 210)",
              after_few >> 10, after_many >> 10))
    tap_diag("the values of replaced bindings are still reachable");
}

static void run(void *arg) {
  int *status = arg;
  bool ok = true;
  for (int i = 0; i < 5; i++) ok &= one_session();
  size_t after_few = live_bytes();
  for (int i = 0; i < 60; i++) ok &= one_session();
  size_t after_many = live_bytes();
  tap_ok(ok, "65 sessions load the Prelude and a chunk, and run it");
  /* 60 more sessions that each kept what they compiled would hold well over 60 Preludes' worth. */
  bool bounded = after_many < after_few + (8u << 20);
  if (!tap_ok(bounded, "what a session compiled is freed with it (live: %zu kB after 5 sessions, %zu kB after 65)",
              after_few >> 10, after_many >> 10))
    tap_diag("the compiled programs of forgotten sessions are still reachable");
  replaced_bindings();
  *status = tap_done();
}

int main(void) { /* on relay's evaluation stack, as the REPL runs */
  rt_heap_init();
  int status = 1;
  return rt_stack_run(run, &status, RT_STACK_BYTES) ? status : 1;
}
