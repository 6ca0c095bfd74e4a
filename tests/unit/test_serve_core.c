/* Unit test of repl/serve_core.h: requests answered by calling the core, as the language server and
 * a WebAssembly build do, with no thread, signal or file descriptor in between. What the session
 * prints (a command's answer, a message) must reach the response through the session's streams:
 * file descriptors 1 and 2 point into a file during the calls, which must stay empty. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repl/serve_core.h"
#include "tests/unit/tap.h"

static ServeCore *core;

/* The response to a request line. */
static const char *answer(const char *line, bool *more) {
  IrBuf out = {0};
  *more = serve_core_answer(core, line, strlen(line), &out);
  return out.data ? out.data : "";
}

static bool timed_out(void *arg) { return *(bool *)arg; }

/* The transport's time limit, in short: an interrupt after 0.2 s, from another thread. */
static void *interrupt_soon(void *arg) {
  (void)arg;
  usleep(200 * 1000);
  rt_interrupt();
  return NULL;
}

int main(void) {
  Session s;
  session_init(&s);
  ReplOptions opt = {.mode = REPL_MODE_SERVE, .no_prelude = true, .timeout_s = 3};
  core = serve_core_new(&s, &opt);
  tap_ok(core && s.out != stdout && s.err != stderr, "the core points the session's streams into its responses");

  fflush(stdout);
  char file[] = "/tmp/relay-serve-core-XXXXXX";
  int fd = mkstemp(file), saved_out = dup(1), saved_err = dup(2);
  unlink(file);
  dup2(fd, 1), dup2(fd, 2);

  bool more_check, more_type, more_eval, more_err, more_bad, more_quit;
  const char *check = answer("{\"id\":1,\"method\":\"check\",\"params\":{\"text\":\"def @f(%x : int32) { %x + 1 }\\n@f(1)\"}}",
                             &more_check);
  const char *type = answer("{\"id\":2,\"method\":\"eval\",\"params\":{\"text\":\":t 1\"}}", &more_type);
  const char *eval = answer("{\"id\":3,\"method\":\"eval\",\"params\":{\"text\":\"1 + 2\\n:trace @g\"}}", &more_eval);
  const char *err = answer("{\"id\":4,\"method\":\"eval\",\"params\":{\"text\":\"%y\"}}", &more_err);
  const char *bad = answer("{\"id\":5,\"method\":\"evil\"}", &more_bad);
  /* a loop that the transport's clock stops: the response says it was the time limit */
  bool limit = true;
  serve_core_set_clock(core, &(ServeCoreClock){NULL, timed_out, &limit});
  pthread_t clock;
  pthread_create(&clock, NULL, interrupt_soon, NULL);
  const char *stopped = answer("{\"id\":6,\"method\":\"eval\",\"params\":{\"text\":\"def @loop(%n : int32) -> int32 "
                               "{ @loop(%n + 1) }\\n@loop(0)\\n1\"}}",
                               &more_quit);
  pthread_join(clock, NULL);
  limit = false;
  bool more_reset;
  answer("{\"id\":7,\"method\":\"reset\"}", &more_reset);
  const char *after_reset = answer("{\"id\":8,\"method\":\"eval\",\"params\":{\"text\":\":t 1\"}}", &more_reset);
  const char *quit = answer("{\"id\":9,\"method\":\"eval\",\"params\":{\"text\":\":quit\"}}", &more_quit);

  fflush(stdout), fflush(stderr);
  off_t leaked = lseek(fd, 0, SEEK_END);
  dup2(saved_out, 1), dup2(saved_err, 2);
  close(fd), close(saved_out), close(saved_err);
  tap_ok(leaked == 0, "nothing was written to file descriptors 1 and 2 (%lld bytes)", (long long)leaked);

#define CHECK(what, got, more, want, want_more)                                                                \
  do {                                                                                                         \
    tap_ok(!strcmp(got, want) && more == want_more, "%s", what);                                               \
    if (strcmp(got, want)) printf("# got:  %s\n# want: %s\n", got, want);                                     \
  } while (0)
  CHECK("check: the definition's and the expression's types", check, more_check,
        "{\"id\":1,\"result\":{\"ok\":true,\"items\":[{\"kind\":\"definition\",\"name\":\"@f\",\"type\":\"fn(int32) -> "
        "int32\"},{\"kind\":\"expression\",\"type\":\"int32\"}]}}",
        true);
  CHECK("eval `:t 1`: what the command printed is an output item", type, more_type,
        "{\"id\":2,\"result\":{\"ok\":true,\"items\":[{\"kind\":\"output\",\"text\":\"1 : int32\\n\"}]}}", true);
  CHECK("eval `1 + 2` then a failing command: a value item, then its message as a stderr item", eval, more_eval,
        "{\"id\":3,\"result\":{\"ok\":false,\"items\":[{\"kind\":\"value\",\"type\":\"int32\",\"text\":\"3\",\"value\":{"
        "\"kind\":\"tensor\",\"dtype\":\"int32\",\"shape\":[],\"data\":[3]}},{\"kind\":\"stderr\",\"text\":\"<repl>: "
        "nothing is named `@g` (:browse lists the definitions)\\n\"}]}}",
        true);
  tap_ok(strstr(err, "\"kind\":\"diagnostic\"") && strstr(err, "unknown variable `%y`") && strstr(err, "\"ok\":false"),
         "eval of an unknown variable: a diagnostic item");
  if (!strstr(err, "\"kind\":\"diagnostic\"")) printf("# got: %s\n", err);
  tap_ok(strstr(bad, "\"code\":-32601") != NULL && more_bad, "an unknown method is an error response");
  tap_ok(strstr(stopped, "\"interrupted\":true,\"timed_out\":true") && !strstr(stopped, "\"value\"") &&
             strstr(stopped, "Stopped: the request ran longer than its time limit of 3 s (relay --serve --timeout 3)"),
         "the transport's clock says the interrupt was the time limit's: timed_out and its message");
  if (!strstr(stopped, "timed_out")) printf("# got: %s\n", stopped);
  CHECK("after `reset` (a fresh session), what a command prints still reaches the response", after_reset, more_reset,
        "{\"id\":8,\"result\":{\"ok\":true,\"items\":[{\"kind\":\"output\",\"text\":\"1 : int32\\n\"}]}}", true);
  CHECK("eval `:quit`: quit, and answer returns false", quit, more_quit,
        "{\"id\":9,\"result\":{\"ok\":true,\"quit\":true}}", false);
  return tap_done();
}
