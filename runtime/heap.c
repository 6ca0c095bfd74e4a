/* The GC heap and the evaluation stack: relay runs on a collector-registered thread with a
 * large stack, so deep recursion in any phase is bounded by explicit depth guards, not by the
 * 8 MB of the main thread. */
#include "runtime/rt.h"

#include <errno.h>
#ifndef RELAY_WASM
#include <pthread.h>
#else
#include <gc/gc_mark.h>
#endif
#include <stdlib.h>
#include <unistd.h>

/* The collector's warnings ("Out of Memory! Trying to continue...") are not for users: running
 * out of memory is reported as a run-time error. */
static void quiet(char *msg, GC_word arg) {
  (void)msg, (void)arg;
}

/* The heap the collector starts with: enough for start-up (the Prelude's syntax trees, types and
 * code take about 2 MB), which would otherwise run several collections while the heap grows from
 * 64 KB; they took half of `relay -e 0`'s time. GC_INITIAL_HEAP_SIZE (bytes) overrides it. */
enum { INITIAL_HEAP_BYTES = 8 << 20 };

#ifndef RELAY_WASM
/* Exhaustion returns NULL to the allocator, which raises "out of memory" (rt_alloc). */
static void *on_out_of_memory(size_t bytes) {
  (void)bytes;
  return NULL;
}

void rt_heap_init(void) {
  GC_INIT();
  GC_set_warn_proc(quiet);
  GC_allow_register_threads();
  GC_set_oom_fn(on_out_of_memory);
  if (!getenv("GC_INITIAL_HEAP_SIZE")) GC_expand_hp(INITIAL_HEAP_BYTES);
  /* Three quarters of the machine: a runaway program meets a clean error, not the OOM killer.
   * The collector's own GC_MAXIMUM_HEAP_SIZE (bytes) overrides it, as tests do. */
  if (getenv("GC_MAXIMUM_HEAP_SIZE")) return;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) GC_set_max_heap_size((size_t)pages / 4 * 3 * (size_t)page);
}

#else
/* relay.wasm (play/wasm/build.sh, docs/play.md): one thread, and a collector that sees only what
 * is in linear memory (the static data, registered below, and the C stack), not the values
 * WebAssembly keeps in its locals. It must never collect while an evaluation's frames are live: it
 * is off during a request and collects between requests (rt_heap_collect). Within a request the
 * heap grows up to the cap; past it, an allocation fails ("out of memory"), once with room set
 * aside for reporting it (wasm_out_of_memory). */
extern char __global_base[], __data_end[]; /* wasm-ld's: the static data's bounds */

static size_t heap_cap, heap_slack;

enum { REPORT_SLACK_BYTES = 16 << 20 };

/* Past the cap, the failed request gets room to report its error: the cap rises by the slack
 * until the next collection. */
static void *wasm_out_of_memory(size_t bytes) {
  (void)bytes;
  if (!heap_slack) {
    heap_slack = REPORT_SLACK_BYTES;
    GC_set_max_heap_size(heap_cap + heap_slack);
  }
  return NULL;
}

/* The registers' and other threads' roots: none (bdwgc's default for emscripten asks for Asyncify
 * to scan WebAssembly's locals, which rt_heap_collect's caller holds no pointers in). */
static void GC_CALLBACK no_other_roots(void) {}

void rt_heap_init(void) {
  GC_set_push_other_roots(no_other_roots);
  GC_INIT();
  GC_set_warn_proc(quiet);
  GC_set_oom_fn(wasm_out_of_memory);
  GC_add_roots(__global_base, __data_end); /* bdwgc 8.2.2 scans no static data on emscripten */
  GC_expand_hp(INITIAL_HEAP_BYTES);
  GC_disable();
}

void rt_heap_collect(void) {
  GC_enable();
  GC_gcollect();
  GC_disable();
  if (heap_slack) {
    heap_slack = 0;
    GC_set_max_heap_size(heap_cap);
  }
}
#endif

void rt_heap_set_max(size_t bytes) {
#ifdef RELAY_WASM
  heap_cap = bytes;
#endif
  GC_set_max_heap_size(bytes);
}

size_t rt_heap_allocated(void) { return GC_get_total_bytes() - rt_state.own_bytes; }

#ifndef RELAY_WASM
typedef struct {
  void (*fn)(void *);
  void *arg;
} StackJob;

static void *stack_main(void *p) {
  StackJob *job = p;
  job->fn(job->arg);
  return NULL;
}

bool rt_stack_run(void (*fn)(void *), void *arg, size_t bytes) {
  pthread_attr_t attr;
  if ((errno = pthread_attr_init(&attr)) != 0) return false;
  if ((errno = pthread_attr_setstacksize(&attr, bytes)) != 0) {
    pthread_attr_destroy(&attr);
    return false;
  }
  StackJob job = {fn, arg};
  pthread_t thread;
  /* gc.h (with GC_THREADS) maps pthread_create to GC_pthread_create, which registers the
   * thread's stack as a root. */
  errno = pthread_create(&thread, &attr, stack_main, &job);
  pthread_attr_destroy(&attr);
  if (errno != 0) return false;
  pthread_join(thread, NULL);
  return true;
}
#else
/* No threads: fn runs on the caller's stack, whose bounds the depth guard reads (error.c). */
bool rt_stack_run(void (*fn)(void *), void *arg, size_t bytes) {
  (void)bytes;
  fn(arg);
  return true;
}
#endif
