/* relay.wasm's one entry point (docs/play.md): relay --serve --sandbox's protocol (docs/serve.md),
 * one request line in, its response line out, over the session the first call makes. Compiled
 * only for WebAssembly (play/wasm/build.sh, -DRELAY_WASM); it has no threads, so no --timeout:
 * the page stops a long request by ending its worker. Between requests, with no frame of an
 * evaluation live, the collector runs (runtime/heap.c says why only then). */
#include <emscripten/emscripten.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/serve_core.h"

/* emscripten's C library has no posix_spawnp, which :graph FILE calls to run Graphviz's dot (a
 * sandboxed session refuses :graph FILE before that): there are no programs to run. */
int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
                 const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) {
  (void)pid, (void)file, (void)actions, (void)attr, (void)argv, (void)envp;
  return ENOSYS;
}

static ServeCore *core;
static Session session;
static IrBuf response; /* the core's answer, on the collector's heap */
static char *answer; /* the last response, malloc'd: the caller reads it after the call */

/* The session, made once: sandboxed, the Prelude loaded, as relay --serve --sandbox starts.
 * NULL (with the reason in *why) when it cannot be made. */
static ServeCore *start(const char **why) {
  rt_heap_init();
  /* The heap's cap (relay --serve --sandbox's) is for what one request allocates and what the
   * session keeps together: the collector runs between requests only. */
  _Static_assert(RT_WASM_HEAP_MB == REPL_SANDBOX_HEAP_MB, "relay.wasm's heap is the sandbox's");
  rt_heap_set_max((size_t)RT_WASM_HEAP_MB << 20);
  ReplOptions opt = {.mode = REPL_MODE_SERVE, .sandbox = true, .max_heap_mb = RT_WASM_HEAP_MB};
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    *why = "relay ran out of memory starting the session";
    return NULL;
  }
  session_init(&session);
  if (!session_load_prelude(&session)) {
    ir_trap_pop(&trap);
    *why = "relay's Prelude did not load";
    return NULL;
  }
  ServeCore *c = serve_core_new(&session, &opt);
  ir_trap_pop(&trap);
  if (!c) *why = "relay could not make its output streams";
  return c;
}

/* A response that is not the core's: an error for the request (id null). */
static const char *failure(const char *message) {
  free(answer);
  size_t n = strlen(message) + 80;
  answer = malloc(n);
  if (answer) snprintf(answer, n, "{\"id\":null,\"error\":{\"code\":-32603,\"message\":\"%s\"}}", message);
  return answer ? answer : "{\"id\":null,\"error\":{\"code\":-32603,\"message\":\"out of memory\"}}";
}

EMSCRIPTEN_KEEPALIVE const char *relay_play_request(const char *line) {
  if (!core) {
    const char *why = NULL;
    core = start(&why);
    if (!core) return failure(why);
  }
  rt_interrupt_clear();
  rt_stack_mark(); /* ccall put the request's text on the stack above: 4 bytes a character */
  response = (IrBuf){0};
  IrTrap trap; /* the core has its own; this one is for what surrounds it */
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) return failure("relay ran out of memory answering the request; the session goes on");
  bool more = serve_core_answer(core, line, strlen(line), &response);
  ir_trap_pop(&trap);
  (void)more; /* :quit: the page ends the worker when the response says `quit` */
  /* The response leaves the collector's heap: the collection below may reuse it. */
  free(answer);
  answer = malloc(response.len + 1);
  if (!answer) return failure("relay ran out of memory answering the request; the session goes on");
  memcpy(answer, response.data, response.len);
  answer[response.len] = '\0';
  response = (IrBuf){0};
  rt_heap_collect();
  return answer;
}
