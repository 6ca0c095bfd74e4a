/* relay --serve's core (docs/serve.md): one JSON request's text in, its response line out, over one
 * session, with no threads, signals or file descriptors, so that every transport shares it: the
 * stdio one (serve.c: a reader thread for `interrupt`, a watchdog for --timeout), the language
 * server, a browser's WebAssembly build. What the session prints goes to its `out` and `err`
 * streams, which the core points into the request's response (fopencookie). A request is stopped
 * by the one interrupt flag (rt_interrupt), which the transport raises and the phases poll. */
#ifndef REPL_SERVE_CORE_H
#define REPL_SERVE_CORE_H

#include "repl/options.h"
#include "repl/session.h"

typedef struct ServeCore ServeCore;

/* A request nests no deeper (they nest two levels); a transport that reads requests itself (an
 * `interrupt` out of turn) reads them with this limit too. */
enum { REPL_SERVE_MAX_DEPTH = 64 };

/* A core answering over the session s, which is initialized and has the Prelude loaded unless
 * opt->no_prelude (as the driver does; `reset` loads it again). It takes opt's --sandbox and
 * --timeout (the seconds a stopped request's message names) and points s->out and s->err into its
 * responses for as long as it lives. NULL when the streams cannot be made (errno says why). */
ServeCore *serve_core_new(Session *s, const ReplOptions *opt);

/* Answers one request (one JSON line's text, without its newline): the response line (no newline)
 * in *out. Returns false when the session has ended (:quit): the transport then stops. */
bool serve_core_answer(ServeCore *c, const char *line, size_t len, IrBuf *out);

/* A transport with a time limit tells the core about it through these, both called on the thread
 * that answers, during serve_core_answer. */
typedef struct ServeCoreClock {
  /* The request's method has done its work: from now on the time limit must not stop it (what
   * is left is making the response). */
  void (*done)(void *arg);
  /* Whether the interrupt that stopped the request was its time limit's: the response then says
   * `timed_out` and the time limit's message takes the place of "Interrupted.". */
  bool (*timed_out)(void *arg);
  void *arg;
} ServeCoreClock;

/* Sets the transport's clock (copied; none by default: no request is ever `timed_out`). */
void serve_core_set_clock(ServeCore *c, const ServeCoreClock *clock);

#endif
