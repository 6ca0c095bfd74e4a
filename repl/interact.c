/* The interactive loop: read lines (with libedit's history and line editing on a terminal) until
 * the input parses or fails for a reason other than ending early, then check it and show each
 * definition's type and each expression's type (values come with the evaluator). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "repl/repl.h"
#include "repl/session.h"

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig) {
  (void)sig;
  interrupted = 1;
}

/* One line without its newline, or NULL at end of input. */
static char *read_line(bool tty, const char *prompt) {
  if (tty) {
    char *line = readline(prompt);
    if (!line) return NULL;
    char *copy = ir_strdup(line);
    free(line);
    return copy;
  }
  IrBuf b;
  ir_buf_init(&b);
  int c;
  while ((c = getchar()) != EOF && c != '\n') ir_buf_putc(&b, (char)c);
  if (c == EOF && b.len == 0) return NULL;
  return b.data;
}

static const char help[] =
    "Enter definitions (def, data, type) and expressions; input continues over several lines\n"
    "until it is complete. This build type-checks what you enter and shows the types.\n"
    "  :help   this text\n"
    "  :quit   leave (Ctrl-D works too)\n";

int session_interact(Session *s) {
  bool tty = isatty(STDIN_FILENO);
  struct sigaction sa = {0};
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, NULL);
  if (tty) printf("relay %s: checks Relay and shows types (evaluation is coming). :help for help.\n", RELAY_VERSION);
  IrBuf input;
  ir_buf_init(&input);
  for (;;) {
    char *line = read_line(tty, input.len ? "  ...> " : "relay> ");
    if (interrupted) {
      interrupted = 0;
      ir_buf_init(&input);
      if (tty) puts("(interrupted)");
      continue;
    }
    if (!line) break;
    if (input.len == 0) {
      const char *t = line + strspn(line, " \t");
      if (*t == '\0') continue;
      if (t[0] == ':') {
        if (!strncmp(t, ":q", 2)) break;
        if (!strncmp(t, ":h", 2)) fputs(help, stdout);
        else fprintf(stderr, "relay: unknown command `%s` (:help lists them)\n", t);
        continue;
      }
    }
    if (tty && *line) add_history(line);
    ir_buf_puts(&input, line);
    ir_buf_putc(&input, '\n');
    bool incomplete = false;
    IrProgram *prog = session_load_chunk(s, "<repl>", input.data, true, &incomplete);
    if (!prog && incomplete) continue; /* wait for the rest */
    if (prog) session_run(s, prog, true);
    fflush(stdout);
    ir_buf_init(&input);
  }
  if (input.len) session_load_chunk(s, "<repl>", input.data, false, NULL); /* reports why it is incomplete */
  if (tty) putchar('\n');
  return 0;
}
