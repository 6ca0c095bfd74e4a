/* The interactive loop: reads an input (a line, more lines while it is incomplete, or a :{ ... :}
 * block), runs it as a chunk or a command, and shows each result with its type. On a terminal it
 * uses libedit (history in ~/.relay_history, completion); otherwise it reads stdin plainly, with
 * no prompt, and the exit status tells whether any input failed. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "repl/complete.h"
#include "repl/input.h"
#include "repl/repl.h"
#include "repl/session.h"

/* ---------------------------------------------------------------- reading */

/* One line without its newline (*len bytes: a NUL byte in it is kept, for the lexer to report),
 * or NULL at end of input. */
static char *read_line(bool tty, const char *prompt, size_t *len) {
  if (tty) {
    char *line = readline(prompt);
    if (!line) return NULL;
    char *copy = ir_strdup(line);
    free(line);
    *len = strlen(copy);
    return copy;
  }
  IrBuf b;
  ir_buf_init(&b);
  int c;
  while ((c = getchar()) != EOF && c != '\n') ir_buf_putc(&b, (char)c);
  if (c == EOF && b.len == 0) return NULL;
  *len = b.len;
  return b.data;
}

/* A key read after a Ctrl-C, kept for the next line (-1: none). With the completion state below,
 * the REPL's one piece of mutable state outside the loop: libedit's callbacks take no context. */
static int key_after_interrupt = -1;

/* libedit's character source. Ctrl-C ends the line at once (the loop then drops it), and no key
 * typed after it is lost: SIGINT is handled on this thread (repl/main.c), so its handler has run
 * when the read or poll it interrupts returns; a key read once the flag is set came after the
 * Ctrl-C (the terminal discards what was typed before it) and is kept for the next line. The wait
 * also wakes every 50 ms to look at the flag; a ^C that arrives as a character counts too. */
static int read_char(FILE *f) {
  struct pollfd p = {.fd = fileno(f), .events = POLLIN};
  for (;;) {
    if (ir_interrupted) return '\n';
    if (key_after_interrupt >= 0) {
      int c = key_after_interrupt;
      key_after_interrupt = -1;
      return c;
    }
    int ready = poll(&p, 1, 50);
    if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
    if (ready < 0) return EOF;
    unsigned char c;
    ssize_t n = read(p.fd, &c, 1);
    if (n == 1 && c == 3) {
      rt_interrupt();
      continue;
    }
    if (n == 1 && ir_interrupted) { /* typed after the Ctrl-C that ends this line */
      key_after_interrupt = c;
      return '\n';
    }
    if (n == 1) return c;
    if (n < 0 && errno == EINTR) continue;
    return EOF;
  }
}

/* The history file: $RELAY_HISTORY, else ~/.relay_history; NULL without a home. */
static const char *history_path(void) {
  const char *p = getenv("RELAY_HISTORY");
  if (p && *p) return p;
  const char *home = getenv("HOME");
  return home && *home ? ir_printf("%s/.relay_history", home) : NULL;
}

/* ---------------------------------------------------------------- completion */

/* The REPL's completion state, in one object: libedit's readline-compatible callbacks
 * (rl_attempted_completion_function, rl_completion_matches' generator) take no context argument,
 * so they reach it as this one instance. */
static struct {
  Session *session;       /* the session whose names complete */
  ReplCandidate *found;   /* for the word being completed (complete_word's state 0 fills it) */
  int n, next;            /* how many, and the next of them to hand to libedit */
} completion;

/* Candidates for the word being completed (complete.c). */
static char *complete_word(const char *text, int state) {
  if (state == 0) {
    completion.n = repl_complete(completion.session, text, &completion.found);
    completion.next = 0;
  }
  return completion.next < completion.n ? strdup(completion.found[completion.next++].name) : NULL; /* libedit frees it */
}

static char **complete(const char *text, int start, int end) {
  (void)end;
  const char *buf = rl_line_buffer;
  while (*buf == ' ') buf++;
  if ((!strncmp(buf, ":l ", 3) || !strncmp(buf, ":load ", 6)) && start > 0) return NULL; /* file names */
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, complete_word);
}

static void setup_line_editing(Session *s) {
  completion.session = s;
  rl_readline_name = "relay";
  rl_getc_function = read_char;
  rl_catch_signals = 0; /* our SIGINT handler, without SA_RESTART, reaches read_char */
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = " \t\n\"(),;{}[]=+-*/<>!&|";
  using_history();
  const char *h = history_path();
  if (h) read_history(h);
}

/* ---------------------------------------------------------------- the loop */

/* The loop's state between lines: the input being gathered (input.c) and whether it is on a
 * terminal (with history). */
typedef struct {
  bool tty;
  ReplInput in;
} Loop;

/* An input's lines become one history entry (a multi-line definition, or a block with its :{ and
 * :}): Up recalls it whole. libedit's history file escapes the newlines in it (strvis), so it
 * comes back whole in the next session too. */
static void remember(const char *entry) {
  if (entry) add_history(entry); /* copies it */
}

/* Reads a line and takes it; false at the end of the input. A history entry of several lines comes
 * back from libedit as one line with newlines in it: its lines are taken in turn, as if typed. */
static bool read_and_run(Session *s, Loop *L) {
  size_t len = 0;
  char *line = read_line(L->tty, repl_input_pending(&L->in) ? "... " : "relay> ", &len);
  if (ir_interrupted) { /* Ctrl-C at the prompt (session_catch_interrupts' flag): drop the input, unremembered */
    rt_interrupt_clear();
    repl_input_drop(&L->in);
    if (L->tty) putchar('\n');
    return true;
  }
  if (!line && L->tty && repl_input_pending(&L->in)) { /* Ctrl-D on a `...` line: the input, not the session */
    repl_input_drop(&L->in);
    puts("(input cancelled)");
    return true;
  }
  if (!line) {
    repl_input_end(s, &L->in);
    return false;
  }
  const char *p = line, *end = line + len;
  for (;;) {
    const char *nl = L->tty ? memchr(p, '\n', (size_t)(end - p)) : NULL;
    repl_input_line(s, &L->in, p, (size_t)((nl ? nl : end) - p));
    if (!nl || L->in.quit) break;
    p = nl + 1;
  }
  return true;
}

/* read_and_run under a trap: out of memory in what no phase guards itself (a command's printing,
 * the line being read) drops the input, not the session. */
static bool loop_step(Session *s, Loop *L) {
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    L->in.text = L->in.entry = (IrBuf){0}; /* what ran out of memory, for the collector */
    s->failed = true;
    s->input++;
    GC_gcollect();
    fprintf(stderr, "error: out of memory (a request for %zu bytes); the input was dropped, the session goes on\n",
            trap.bytes);
    repl_input_drop(&L->in);
    return true;
  }
  bool more = read_and_run(s, L);
  ir_trap_pop(&trap);
  return more;
}

int session_interact(Session *s) {
  bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  s->repl = true;
  s->input = 1;
  session_catch_interrupts(NULL);
  if (tty) {
    setup_line_editing(s);
    printf("relay %s, an interpreter for Relay. :help lists the commands; Ctrl-D leaves.\n", RELAY_VERSION);
  } else {
    setvbuf(stdout, NULL, _IOLBF, 0); /* results and errors stay in order in a transcript */
  }
  Loop loop = {.tty = tty};
  repl_input_init(&loop.in, tty ? remember : NULL);
  loop.in.blank_line_ends = true;
  loop.in.early_errors = tty;
  while (!loop.in.quit && loop_step(s, &loop)) {}
  if (tty) {
    putchar('\n');
    const char *h = history_path();
    if (h) write_history(h);
  }
  return s->failed && !tty ? 1 : 0;
}
