/* main(): start the collector, read the command line, and run everything else on the large
 * evaluation stack (runtime/heap.c), so deep programs meet depth guards, not the 8 MB limit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/options.h"
#include "repl/repl.h"
#include "runtime/runtime.h"

/* OpenBLAS starts its worker threads when it is loaded, and an idle worker spins (calling
 * sched_yield) for 2^28 processor cycles, about 0.1 s, before it sleeps: at start-up and after
 * every multithreaded BLAS call. On two cores that spinning took the second core from the
 * collector's marker thread: fib(30) took 1.8 CPUs and 40% more wall time. 2^20 cycles (well
 * under a millisecond) keeps a worker ready between the calls of a tensor program. OpenBLAS reads
 * OPENBLAS_THREAD_TIMEOUT (log2 of the cycles) while it is initialized, before main(); a
 * pre-initializer runs before any shared library's initializer. A value in the environment wins. */
static void quiet_blas_threads(int argc, char **argv, char **envp) {
  (void)argc, (void)argv, (void)envp;
  setenv("OPENBLAS_THREAD_TIMEOUT", "20", 0);
}
__attribute__((section(".preinit_array"), used)) static void (*const preinit)(int, char **, char **) =
    quiet_blas_threads;

typedef struct {
  const ReplOptions *opt;
  int status;
} Job;

static void run_job(void *p) {
  Job *job = p;
  job->status = repl_main(job->opt);
}

int main(int argc, char **argv) {
  rt_heap_init();
  ReplOptions opt;
  const char *error = NULL;
  if (!repl_options_parse(argc, argv, &opt, &error)) {
    fprintf(stderr, "relay: %s\n(relay --help shows the usage)\n", error);
    return 2;
  }
  Job job = {&opt, 0};
  size_t stack = opt.stack_mb ? (size_t)opt.stack_mb << 20 : RT_STACK_BYTES;
  if (!rt_stack_run(run_job, &job, stack)) {
    fprintf(stderr, "relay: cannot make the evaluation stack (%s)\n", strerror(errno));
    return 1;
  }
  fflush(stdout);
  return job.status;
}
