/* main(): start the collector, read the command line, and run everything else on the large
 * evaluation stack (runtime/heap.c), so deep programs meet depth guards, not the 8 MB limit. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "repl/options.h"
#include "repl/repl.h"
#include "runtime/runtime.h"

typedef struct {
  const ReplOptions *opt;
  int status;
  int write_errno; /* why the output could not be written (errno is the evaluation thread's) */
} Job;

/* The last resort for running out of memory: every phase has a trap of its own that reports it
 * and goes on; one in what surrounds them (reading a line, say) ends relay with a message. */
static void run_job(void *p) {
  Job *job = p;
  sigset_t intr;
  sigemptyset(&intr);
  sigaddset(&intr, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &intr, NULL); /* this thread takes Ctrl-C (main says why) */
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    fprintf(stderr, "relay: out of memory (a request for %zu bytes)\n", trap.bytes);
    job->status = 1;
    return;
  }
  job->status = repl_main(job->opt);
  ir_trap_pop(&trap);
  int err = errno;
  if (fflush(stdout) != 0 || ferror(stdout)) job->write_errno = errno ? errno : err;
}

int main(int argc, char **argv) {
  /* A reader that goes away (`relay FILE | head`) makes writes fail with EPIPE, which ends the run
   * with "cannot write the output" and status 1, rather than killing relay with a signal. */
  signal(SIGPIPE, SIG_IGN);
  /* Ctrl-C's SIGINT goes to the thread that reads and evaluates (run_job unblocks it; the
   * collector's marker threads block it, OpenBLAS's workers are started with it blocked): its read
   * or poll ends at once, and the REPL can tell the keys read before the signal from those after. */
  sigset_t intr;
  sigemptyset(&intr);
  sigaddset(&intr, SIGINT);
  pthread_sigmask(SIG_BLOCK, &intr, NULL);
  rt_heap_init();
  ReplOptions opt;
  const char *error = NULL;
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    fprintf(stderr, "relay: out of memory (a request for %zu bytes)\n", trap.bytes);
    return 1;
  }
  bool parsed = repl_options_parse(argc, argv, &opt, &error);
  ir_trap_pop(&trap);
  if (!parsed) {
    fprintf(stderr, "relay: %s\n(relay --help shows the usage)\n", error);
    return 2;
  }
  if (opt.max_heap_mb) rt_heap_set_max((size_t)opt.max_heap_mb << 20);
  Job job = {&opt, 0, 0};
  size_t stack = opt.stack_mb ? (size_t)opt.stack_mb << 20 : RT_STACK_BYTES;
  if (!rt_stack_run(run_job, &job, stack)) {
    fprintf(stderr, "relay: cannot make the evaluation stack (%s)\n", strerror(errno));
    return 1;
  }
  /* Output that could not be written (a full disk, a closed stdout) is a failure, as in every
   * well-behaved tool: say so and exit 1, never 0. */
  if (fflush(stdout) != 0 || ferror(stdout)) {
    int err = errno ? errno : job.write_errno ? job.write_errno : EIO;
    fprintf(stderr, "relay: cannot write the output: %s\n", strerror(err));
    return job.status ? job.status : 1;
  }
  return job.status;
}
