/* relay --serve's stdio transport (docs/serve.md): one JSON request per line on stdin, one JSON
 * response per line on stdout, answered by the serve core (serve_core.c) over one session. A reader
 * thread takes the lines, so that an `interrupt` can stop the request being answered; a watchdog
 * thread stops one that runs past --timeout; this thread (the evaluation thread, which takes SIGINT)
 * answers every other request in order. The session prints into its responses (the core's
 * streams), so stdout carries nothing but responses. */
#include "repl/serve.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "repl/serve_core.h"

/* A line read, waiting for its answer (malloc'd: the reader thread hands it over). */
typedef struct Line {
  char *text;
  size_t len;
  struct Line *next;
} Line;

typedef struct Server {
  ServeCore *core;
  double timeout_s; /* --timeout: a request's time limit in seconds, 0 for none */
  /* ---- shared with the reader thread, under `lock` */
  pthread_mutex_t lock;
  pthread_cond_t more;
  Line *head, *tail;
  bool eof;
  bool running; /* a request is being answered: an interrupt goes to `worker` */
  pthread_t worker;
  /* the time limit: the watchdog thread waits on `tick` for a request to start, then for it to end
   * or its time to pass; past it, the request is interrupted as an `interrupt` request does */
  pthread_cond_t tick;
  unsigned serial;        /* the requests started so far */
  struct timespec began;  /* when the running one started (CLOCK_MONOTONIC) */
  bool timing;            /* its method runs: past its time the watchdog interrupts it */
  bool timed_out;         /* the watchdog interrupted it */
  /* ---- responses: the real stdout, written a whole line at a time under `write_lock` */
  pthread_mutex_t write_lock;
  int out;
  bool broken; /* stdout could not be written: the client has gone */
} Server;

/* ---------------------------------------------------------------- writing responses */

/* Writes a response line (a newline is added), whole, under the lock. */
static void send_line(Server *sv, const IrBuf *b) {
  pthread_mutex_lock(&sv->write_lock);
  const char *p = b->data;
  size_t left = b->len;
  bool ok = true;
  while (ok && left) {
    ssize_t n = write(sv->out, p, left);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    p += ok ? n : 0;
    left -= ok ? (size_t)n : 0;
  }
  while (ok && write(sv->out, "\n", 1) < 0 && errno == EINTR) {}
  if (!ok) sv->broken = true;
  pthread_mutex_unlock(&sv->write_lock);
}

/* Whether stdout has failed; the reader thread writes responses too (an interrupt's answer). */
static bool broken(Server *sv) {
  pthread_mutex_lock(&sv->write_lock);
  bool b = sv->broken;
  pthread_mutex_unlock(&sv->write_lock);
  return b;
}

/* ---------------------------------------------------------------- the time limit, as the core asks */

static void clock_done(void *arg) {
  Server *sv = arg;
  pthread_mutex_lock(&sv->lock);
  sv->timing = false;
  pthread_mutex_unlock(&sv->lock);
}

static bool clock_timed_out(void *arg) {
  Server *sv = arg;
  pthread_mutex_lock(&sv->lock);
  bool t = sv->timed_out;
  pthread_mutex_unlock(&sv->lock);
  return t;
}

/* ---------------------------------------------------------------- the reader thread */

/* An `interrupt` request, answered at once: the request being answered (if any) gets SIGINT on
 * its thread, as Ctrl-C. Any other line is left for the queue (false). Only a line that mentions
 * `interrupt` is read as JSON here. */
static bool interrupt_now(Server *sv, const char *line, size_t len) {
  if (!memmem(line, len, "interrupt", 9)) return false;
  IrTrap trap; /* this thread's own: the trap stack is per thread */
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) return false; /* out of memory: the queue's answer will say so */
  IrJsonError err;
  const IrJson *req = ir_json_parse(line, len, REPL_SERVE_MAX_DEPTH, &err);
  const IrJson *method = req ? ir_json_get(req, "method") : NULL, *params = req ? ir_json_get(req, "params") : NULL;
  if (!method || method->kind != IR_JSON_STRING || strcmp(method->s, "interrupt") || (params && params->kind != IR_JSON_OBJECT)) {
    ir_trap_pop(&trap);
    return false;
  }
  pthread_mutex_lock(&sv->lock);
  bool running = sv->running;
  if (running) pthread_kill(sv->worker, SIGINT);
  pthread_mutex_unlock(&sv->lock);
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "{\"id\":");
  ir_json_put(&b, ir_json_get(req, "id"));
  ir_buf_printf(&b, ",\"result\":{\"interrupted\":%s}}", running ? "true" : "false");
  ir_trap_pop(&trap);
  send_line(sv, &b);
  return true;
}

static void *read_lines(void *arg) {
  Server *sv = arg;
  sigset_t intr;
  sigemptyset(&intr);
  sigaddset(&intr, SIGINT);
  pthread_sigmask(SIG_BLOCK, &intr, NULL); /* Ctrl-C is the answering thread's */
  char *text = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&text, &cap, stdin)) >= 0) {
    size_t len = (size_t)n;
    if (len && text[len - 1] == '\n') len--;
    if (len && text[len - 1] == '\r') len--;
    if (interrupt_now(sv, text, len)) continue;
    Line *l = malloc(sizeof *l);
    if (!l) { /* no memory even for the queue: the request is answered so, not left waiting */
      static char no_room[] = "{\"id\":null,\"error\":{\"code\":-32603,\"message\":\"relay ran out of memory queueing "
                              "the request; the session goes on\"}}";
      send_line(sv, &(IrBuf){no_room, sizeof no_room - 1, sizeof no_room});
      continue;
    }
    *l = (Line){text, len, NULL};
    text = NULL;
    cap = 0;
    pthread_mutex_lock(&sv->lock);
    if (sv->tail) sv->tail->next = l;
    else sv->head = l;
    sv->tail = l;
    pthread_cond_signal(&sv->more);
    pthread_mutex_unlock(&sv->lock);
  }
  free(text);
  pthread_mutex_lock(&sv->lock);
  sv->eof = true;
  pthread_cond_signal(&sv->more);
  pthread_mutex_unlock(&sv->lock);
  return NULL;
}

/* ---------------------------------------------------------------- the time limit */

/* The watchdog (--timeout): each request that runs past its time gets SIGINT on the answering
 * thread, as an `interrupt` request sends it; the response then says `timed_out`. */
static void *watch_time(void *arg) {
  Server *sv = arg;
  sigset_t intr;
  sigemptyset(&intr);
  sigaddset(&intr, SIGINT);
  pthread_sigmask(SIG_BLOCK, &intr, NULL); /* Ctrl-C is the answering thread's */
  long whole = (long)sv->timeout_s, nanos = (long)((sv->timeout_s - (double)whole) * 1e9);
  pthread_mutex_lock(&sv->lock);
  for (;;) {
    while (!sv->timing) pthread_cond_wait(&sv->tick, &sv->lock);
    unsigned serial = sv->serial;
    struct timespec deadline = {sv->began.tv_sec + whole, sv->began.tv_nsec + nanos};
    if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
    int rc = 0;
    while (sv->timing && sv->serial == serial && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&sv->tick, &sv->lock, &deadline);
    if (sv->timing && sv->serial == serial) {
      sv->timed_out = true;
      pthread_kill(sv->worker, SIGINT);
      while (sv->timing && sv->serial == serial) pthread_cond_wait(&sv->tick, &sv->lock);
    }
  }
  return NULL;
}

/* ---------------------------------------------------------------- the loop */

/* The server: static, as the reader thread may outlive serve_main (after :quit it is still waiting
 * for a line when main returns). */
static Server server;

int serve_main(Session *s, const ReplOptions *opt) {
  Server *sv = &server;
  *sv = (Server){.timeout_s = opt->timeout_s, .worker = pthread_self()};
  pthread_mutex_init(&sv->lock, NULL);
  pthread_mutex_init(&sv->write_lock, NULL);
  pthread_cond_init(&sv->more, NULL);
  pthread_condattr_t monotonic;
  pthread_condattr_init(&monotonic);
  pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
  pthread_cond_init(&sv->tick, &monotonic);
  fflush(stdout);
  fflush(stderr);
  /* Responses go to the real stdout; fd 1 itself now goes to stderr, so that nothing printed
   * there by mistake (the session prints into its responses) can break a response line. */
  sv->out = dup(STDOUT_FILENO);
  int real_err = STDERR_FILENO;
  sv->core = serve_core_new(s, opt);
  if (sv->out < 0 || !sv->core || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    dprintf(real_err, "relay: cannot start --serve: %s\n", strerror(errno));
    return 1;
  }
  if (sv->timeout_s > 0) serve_core_set_clock(sv->core, &(ServeCoreClock){clock_done, clock_timed_out, sv});
  session_catch_interrupts(NULL);
  pthread_t reader;
  if ((errno = pthread_create(&reader, NULL, read_lines, sv)) != 0) {
    dprintf(real_err, "relay: cannot start --serve's reader: %s\n", strerror(errno));
    return 1;
  }
  pthread_t watchdog;
  if (sv->timeout_s > 0) {
    if ((errno = pthread_create(&watchdog, NULL, watch_time, sv)) != 0) {
      dprintf(real_err, "relay: cannot start --serve's time limit: %s\n", strerror(errno));
      return 1;
    }
    pthread_detach(watchdog); /* it waits for the next request when the process ends */
  }
  bool more = true;
  while (more && !broken(sv)) {
    pthread_mutex_lock(&sv->lock);
    while (!sv->head && !sv->eof) pthread_cond_wait(&sv->more, &sv->lock);
    Line *l = sv->head;
    if (l) {
      sv->head = l->next;
      if (!sv->head) sv->tail = NULL;
      rt_interrupt_clear(); /* one sent while nothing ran is not this request's */
      sv->running = true;
      sv->serial++;
      sv->timed_out = false;
      sv->timing = sv->timeout_s > 0;
      clock_gettime(CLOCK_MONOTONIC, &sv->began);
      pthread_cond_signal(&sv->tick);
    }
    pthread_mutex_unlock(&sv->lock);
    if (!l) break;
    IrBuf response = {0};
    more = serve_core_answer(sv->core, l->text, l->len, &response);
    free(l->text);
    free(l);
    pthread_mutex_lock(&sv->lock);
    sv->running = false; /* before the response: an interrupt sent after reading it finds nothing running */
    sv->timing = false;   /* (answer stopped it already, unless memory ran out) */
    pthread_cond_signal(&sv->tick);
    pthread_mutex_unlock(&sv->lock);
    send_line(sv, &response);
  }
  /* The reader may still be waiting for a line: the process ends with it (main returns). */
  pthread_detach(reader);
  s->out = stdout; /* the core's streams are for requests */
  s->err = stderr;
  dup2(sv->out, STDOUT_FILENO);
  bool failed = broken(sv);
  if (failed) dprintf(real_err, "relay: --serve cannot write its responses: %s\n", strerror(EPIPE));
  return failed ? 1 : 0;
}
