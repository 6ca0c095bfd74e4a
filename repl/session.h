/* A session: the module that the REPL and the file loader extend chunk by chunk. Loading a chunk
 * parses and type-checks it as a whole; only a chunk that passes joins the module. */
#ifndef REPL_SESSION_H
#define REPL_SESSION_H

#include <signal.h>
#include <stdio.h>

#include "ir/ir.h"
#include "runtime/runtime.h"
#include "typing/typing.h"

/* Where a session's answers go instead of the terminal: relay --serve collects them into its
 * responses (serve_core.c). With no sink, results are printed on the session's `out` as the REPL
 * shows them and diagnostics on its `err`. Other messages are printed there either way (--serve's
 * core points both into its responses). */
typedef struct SessionSink {
  void (*diags)(struct SessionSink *sink, const IrDiags *ds); /* a phase's diagnostics, in order */
  /* a top-level expression's value or a binding's (it->def), `timing` the :set timing line or NULL */
  void (*value)(struct SessionSink *sink, const IrTItem *it, RtValue v, const char *timing);
  void (*definition)(struct SessionSink *sink, const IrTItem *it); /* a definition or data declaration */
} SessionSink;

/* An input that failed with an error that is not a type error: its kind and its number. */
typedef struct SessionError {
  IrDiagKind kind;
  int input;
} SessionError;

/* A definition whose checking failed, with what :graph and :annot show of it. */
typedef struct SessionFailedDef {
  const IrProgram *prog; /* the chunk as parsed */
  const IrItem *def;
  IrSpan span;           /* its first type error */
  const char *message;
} SessionFailedDef;

typedef struct Session {
  TyModule *module;
  RtProgram *program; /* what the module's definitions compiled to */
  IrParseOptions parse;
  IrTProgram *prelude; /* the Prelude as loaded, or NULL (--no-prelude) */
  /* What joined the module, for :browse and :info: every definition and data declaration in
   * the order loaded, and the newest one of each name (constructors map to their data item). */
  IR_VEC(const IrItem *) items;
  IrSymMap defs, datas, ctors;
  /* The REPL's state: the files of the last :load (for :reload), :set, and whether any
   * input failed (the exit status when stdin is not a terminal). */
  const char **loaded;
  int nloaded;
  /* The files of the last :load, which :reload replaces as a whole (GHCi's module): their
   * programs as committed, and the names as they were before (the module's, and the tables
   * above), which a name a file no longer defines gives way to. progs is NULL before any :load. */
  struct {
    const IrTProgram **progs;
    int nprogs;
    TyNames *before;
    IrSymMap defs, datas, ctors;
  } layer;
  bool timing;
  RtListStyle lists; /* :set lists: how values show lists (the REPL, --serve's text) */
  bool failed;
  bool repl; /* inputs come from the REPL: an interrupted evaluation just says "Interrupted." */
  bool sandbox; /* relay --serve --sandbox: no command reads or writes a file (commands.c refuses them) */
  /* RELAY_CHECK_VALUES (set and not 0): every top-level value is checked against its type
   * (rt_value_check), a mismatch an internal error; the soundness tests' oracle */
  bool check_values;
  int input; /* the number of the REPL input being run (1, 2, ...), which places in <repl> show */
  /* :trace: the traced definitions, in the order traced; a later definition of a traced name is
   * traced too when it loads */
  IR_VEC(const IrTDef *) traced;
  /* :graph and :annot: the definitions whose checking failed (in a chunk that failed, so they are
   * not in the module), each with the chunk as parsed and its first type error's place and
   * message; the newest of each name only. A later definition of the name that loads removes it. */
  IR_VEC(SessionFailedDef) failed_defs;
  const IrDiag *last_type_error; /* the newest type error reported, for :explain (its detail: the
                                    failed relation), or NULL */
  int last_type_error_input;     /* the input it was in (0: a file of the command line) */
  /* The inputs since it that failed with errors of other kinds (parse, run-time), in order, for
   * :explain to say that the error it explains is not theirs. */
  IR_VEC(SessionError) errors_since;
  SessionSink *sink; /* NULL: the terminal */
  /* Where what the session prints goes: its commands' answers, :trace's lines, and without a sink its
   * results and diagnostics (stdout and stderr by session_init; --serve's core points them into
   * its responses, serve_core.c) */
  FILE *out, *err;
} Session;

void session_init(Session *s);
/* Reports diagnostics: to the sink, or printed on stderr. */
void session_report(Session *s, const IrDiags *ds);
/* The definition of that name whose checking failed and that no later one replaced, or NULL. */
const SessionFailedDef *session_failed_def(const Session *s, Sym name);
/* Loads the Prelude embedded in the binary (prelude/prelude.h); false, after printing the
 * diagnostics, if it does not check (the tests make sure it does). */
bool session_load_prelude(Session *s);
/* Why a file could not be read, for errno err (a file past IR_SOURCE_MAX says so). */
const char *session_read_error(int err);
/* Parses, checks and compiles a file; on error prints the diagnostics and returns NULL, changing nothing.
 * With definitions_only, its top-level expressions are not checked (they will not run). */
IrTProgram *session_load_file(Session *s, const char *path, bool definitions_only);
/* How a REPL input's text ends: it is whole (its end, or a :} line: an incomplete input is an
 * error), more lines may come (an incomplete input waits, quietly), or a blank line ended it (an
 * incomplete input is an error, except that a pasted TVM dump waits past one blank line for its
 * #[metadata] section). */
typedef enum { SESSION_CHUNK_WHOLE, SESSION_CHUNK_MORE_MAY_COME, SESSION_CHUNK_BLANK_LINE } SessionChunkEnd;
/* The REPL's :load (reload false) and :reload (true): loads the files (each sees the ones before
 * it), all of them or, on any error, none; :reload first takes away what the last :load's files
 * defined that no later input has defined again, so that a definition deleted from a file goes
 * (and what it shadowed comes back). Warns about a file that uses a definition made outside the
 * files (at the prompt): `relay FILE` would fail. Then runs the files' expressions; false when
 * any step failed (said). */
bool session_load_files(Session *s, int n, const char **files, bool reload);
/* Parses and checks text (len bytes, NUL bytes included: they are an error with a place) as a chunk
 * (named `name` in diagnostics). *incomplete tells the REPL that it waits for more lines (nothing
 * is printed then). */
IrTProgram *session_load_chunk(Session *s, const char *name, const char *text, size_t len, SessionChunkEnd end,
                               bool *incomplete);
/* session_load_chunk for a REPL input whose earlier line ends were not tried (input.c asks the
 * parser only where its line scanner says the input may be complete): with held, a parse error
 * (not a wait for more lines: the text ending too early is one when a blank line or the end ended
 * it) is not reported; NULL is returned with *held the line of the error, for the caller to find
 * the line where an error would have shown first (session_input_fails_to_parse) and report it there. */
IrTProgram *session_load_input(Session *s, const char *name, const char *text, size_t len, SessionChunkEnd end,
                               bool *incomplete, int *held);
/* Whether text, as a REPL input that more lines may follow, is a parse error that session_load_chunk
 * would report (not the text ending too early, nor a dump waiting for its #[metadata] section): the
 * line of the error, else 0. It only parses, and says nothing. */
int session_input_fails_to_parse(Session *s, const char *name, const char *text, size_t len);
/* Parses and checks an expression (`name` is its source in diagnostics: "<command line>",
 * "<repl>"); returns its type (generalized), and its typed form in *expr if expr is not NULL, or
 * NULL after printing why. */
IrType *session_check_expression(Session *s, const char *name, const char *text, IrTFn **expr);
/* Parses and checks an expression (`name` as in session_check_expression) for the REPL's :t and
 * :annot and for -t (ty_explore_expression: holes are
 * described, and a type error keeps the types found before it); *expr is its AST. Its diagnostics
 * are left in *diags for the caller to print after what it shows. False when it does not parse or
 * memory ran out (which is said at once). */
bool session_explore_expression(Session *s, const char *name, const char *text, const IrExpr **expr, TyExplored *out,
                                IrDiags *diags);
/* The same for definitions (`:annot def @f(...) { ... }`): parses text as a chunk and checks it,
 * the module unchanged; *checked is the typed program, or NULL on a type error, when *partial
 * holds the types found before it (ty_partial_types). False when it does not parse or memory ran
 * out (said at once). */
bool session_explore_definitions(Session *s, const char *name, const char *text, const IrProgram **prog,
                                 IrTProgram **checked, IrPtrMap **partial, IrDiags *diags);
/* Evaluates a checked expression; on a run-time error prints it and returns false. SIGINT
 * interrupts the evaluation (a run-time error; in the REPL, "Interrupted.") while it runs. */
bool session_eval(Session *s, const IrTFn *e, RtValue *out);
/* Installs relay's one SIGINT handler, which sets the one interrupt flag (ir_interrupted) that
 * every phase polls; the previous disposition goes to *old unless old is NULL. The REPL installs
 * it for the whole session, file runs around each evaluation. */
void session_catch_interrupts(struct sigaction *old);
/* Runs a loaded program's top-level expressions in order, printing each value on its own line
 * (the REPL: `- : TYPE = VALUE`, and `@name : TYPE` for definitions); stops at the first
 * run-time error and returns false. In the REPL's style it goes on listing the definitions after
 * it (they were made), not running the expressions, and says how many did not run. */
bool session_run(Session *s, const IrTProgram *prog, bool repl_style);
/* `@name : TYPE` for a definition, `- : TYPE` for an expression (of type `type`), and a line per
 * constructor (`Cons : fn<a>(a, List[a]) -> List[a]`) for a data declaration, as the REPL shows them. */
bool session_describe(const Session *s, const IrItem *item, const IrType *type, IrBuf *out);
/* `%x : TYPE = VALUE` for each of the session's bindings (a REPL input's `let %x = e`, `%it`)
 * that is the newest of its name, in the order they were made, a line each. */
void session_show_bindings(const Session *s, IrBuf *out);
/* The interactive loop; returns the exit status. */
int session_interact(Session *s);

#endif
