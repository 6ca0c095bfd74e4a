/* :graph — the dataflow graph of a first-order tensor function, written as Graphviz DOT: one node
 * per parameter, operator call, call of another global, constant, tuple and projection, and an
 * edge for each value passed, labelled with the value's type. The walk is over the definition as
 * parsed, with the types looked up by node: from the typed program (ir/typed.h) of a definition
 * that checked, or, for one whose check failed, what checking had found when it stopped
 * (ty_partial_types): its failing node is drawn red, and the edges that checking did not reach
 * are dashed and unlabelled. What has no place in a dataflow graph (branches, matches, function
 * values, constructors, references, recursion) makes a message saying so instead. */
#include "repl/graph.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Larger graphs are refused: Graphviz takes minutes to lay them out. A label's line is cut after
 * LABEL_CHARS characters; an operator's attributes take at most MAX_ATTR_LINES lines. */
enum { MAX_NODES = 5000, LABEL_CHARS = 40, MAX_ATTR_LINES = 4, TYPE_CHARS = 120 };

typedef struct {
  const IrExpr *expr; /* what it draws (NULL for the result), whose span locates an error */
  const char *label;  /* lines separated by '\n' */
  const char *shape;
} Node;

typedef struct {
  int from, to;
  const IrExpr *use; /* the expression whose value the edge carries: its type is the label */
} Edge;

typedef struct {
  const IrItem *def;
  IrPtrMap *types; /* IrExpr -> IrType */
  IR_VEC(Node) nodes;
  IR_VEC(Edge) edges;
  IrSymMap scope;      /* a variable in scope -> its node + 1 */
  IrPtrMap graph_node; /* a graph binding's value (`%0 = v`) -> its node + 1, for uses out of scope */
  const char *refused; /* why it cannot be drawn, or NULL */
} Graph;

/* ---------------------------------------------------------------- building */

static int add_node(Graph *g, const IrExpr *e, const char *label, const char *shape) {
  IR_VEC_PUSH(g->nodes, ((Node){e, label, shape}));
  return g->nodes.len - 1;
}

static void add_edge(Graph *g, int from, int to, const IrExpr *use) {
  if (from >= 0 && to >= 0) IR_VEC_PUSH(g->edges, ((Edge){from, to, use}));
}

static int refuse(Graph *g, const IrExpr *e, const char *why) {
  if (!g->refused)
    g->refused = ir_printf("`@%s` cannot be drawn: it %s at %s; :graph draws first-order functions of tensors, "
                           "made of operator calls, lets and tuples",
                           g->def->name->name, why, ir_span_place(e->span));
  return -1;
}

/* text, cut to about n bytes with "..." (not inside a UTF-8 character) */
static const char *cut(const char *text, size_t n) {
  if (strlen(text) <= n) return text;
  size_t k = n - 3;
  while (k > 0 && ((unsigned char)text[k] & 0xc0) == 0x80) k--;
  return ir_printf("%.*s...", (int)k, text);
}

static const char *expr_text(const IrExpr *e) {
  IrBuf b;
  ir_buf_init(&b);
  ir_print_expr(&b, e, 0);
  return cut(b.data, LABEL_CHARS);
}

static int walk(Graph *g, const IrExpr *e);

/* A call: its arguments, then its node (an operator's with its attributes as written). */
static int walk_call(Graph *g, const IrExpr *e) {
  const IrExpr *f = e->u.call.callee;
  const char *label;
  switch (f->kind) {
  case IR_EXPR_OP: label = ir_ops[f->u.op].name; break;
  case IR_EXPR_GLOBAL:
    if (f->u.name == g->def->name) return refuse(g, e, "is recursive: it calls itself");
    label = ir_printf("@%s", f->u.name->name);
    break;
  case IR_EXPR_CTOR: return refuse(g, e, ir_printf("builds a `%s`", f->u.name->name));
  default: return refuse(g, e, "calls a function value");
  }
  int n = e->u.call.nargs;
  int *args = IR_NEW_ARRAY(int, n > 0 ? n : 1);
  for (int i = 0; i < n; i++)
    if ((args[i] = walk(g, e->u.call.args[i])) < 0) return -1;
  if (e->u.call.nattrs) { /* the attributes as written, a few to a line */
    IrBuf b;
    ir_buf_init(&b);
    ir_buf_puts(&b, label);
    size_t line = b.len;
    for (int i = 0, lines = 1; i < e->u.call.nattrs; i++) {
      IrBuf a;
      ir_buf_init(&a);
      ir_buf_printf(&a, "%s=", e->u.call.attrs[i].key->name);
      ir_print_attr_value(&a, &e->u.call.attrs[i].val);
      const char *text = cut(a.data, LABEL_CHARS);
      if (i && b.len - line + 2 + strlen(text) <= LABEL_CHARS) {
        ir_buf_printf(&b, ", %s", text);
        continue;
      }
      if (++lines > MAX_ATTR_LINES) {
        ir_buf_puts(&b, ", ...");
        break;
      }
      ir_buf_putc(&b, '\n');
      line = b.len;
      ir_buf_puts(&b, text);
    }
    label = b.data;
  }
  int node = add_node(g, e, label, "box");
  for (int i = 0; i < n; i++) add_edge(g, args[i], node, e->u.call.args[i]);
  return node;
}

/* A chain of lets, walked with a loop; each variable names the node of its value. */
static int walk_let(Graph *g, const IrExpr *e) {
  IR_VEC(const IrExpr *) lets = {0};
  IR_VEC(void *) saved = {0}; /* what each variable's name meant before */
  const IrExpr *cur = e;
  for (; cur->kind == IR_EXPR_LET; cur = cur->u.let.body) {
    const IrExpr *value = cur->u.let.value;
    int node = walk(g, value);
    if (node < 0) break;
    Node *n = &g->nodes.items[node];
    if (n->expr == value) n->label = ir_printf("%s\n%%%s", n->label, cur->u.let.var.name->name);
    IR_VEC_PUSH(lets, cur);
    IR_VEC_PUSH(saved, ir_symmap_get(&g->scope, cur->u.let.var.name));
    ir_symmap_put(&g->scope, cur->u.let.var.name, (void *)(intptr_t)(node + 1));
    if (cur->u.let.how == IR_LET_GRAPH) ir_ptrmap_put(&g->graph_node, value, (void *)(intptr_t)(node + 1));
  }
  int body = g->refused ? -1 : walk(g, cur);
  for (int i = lets.len - 1; i >= 0; i--) ir_symmap_put(&g->scope, lets.items[i]->u.let.var.name, saved.items[i]);
  return body;
}

/* The node whose value e is (made now if e makes one), or -1 when the function is refused. */
static int walk(Graph *g, const IrExpr *e) {
  if (g->refused) return -1;
  if (g->nodes.len >= MAX_NODES) {
    g->refused = ir_printf("`@%s` has more than %d nodes (operator calls, constants, parameters): too many to draw",
                           g->def->name->name, MAX_NODES);
    return -1;
  }
  switch (e->kind) {
  case IR_EXPR_LOCAL: {
    intptr_t k = (intptr_t)ir_symmap_get(&g->scope, e->u.name);
    if (!k && e->graph_value) k = (intptr_t)ir_ptrmap_get(&g->graph_node, e->graph_value);
    if (k) return (int)k - 1;
    if (e->graph_value) return walk(g, e->graph_value);
    return add_node(g, e, ir_printf("%%%s", e->u.name->name), "ellipse"); /* unknown: the definition failed */
  }
  case IR_EXPR_LIT:
  case IR_EXPR_TENSOR:
  case IR_EXPR_FILL:
  case IR_EXPR_META: return add_node(g, e, expr_text(e), "plaintext");
  case IR_EXPR_HOLE: /* a typed hole: the definition did not check, and the hole shows where it is */
    return add_node(g, e, ir_printf("?%s", e->u.name ? e->u.name->name : ""), "ellipse");
  case IR_EXPR_TUPLE: {
    int n = e->u.tuple.n;
    int *items = IR_NEW_ARRAY(int, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
      if ((items[i] = walk(g, e->u.tuple.fields[i])) < 0) return -1;
    int node = add_node(g, e, "tuple", "box");
    for (int i = 0; i < n; i++) add_edge(g, items[i], node, e->u.tuple.fields[i]);
    return node;
  }
  case IR_EXPR_PROJ: {
    int tuple = walk(g, e->u.proj.tuple);
    if (tuple < 0) return -1;
    int node = add_node(g, e, ir_printf(".%d", e->u.proj.index), "box");
    add_edge(g, tuple, node, e->u.proj.tuple);
    return node;
  }
  case IR_EXPR_LET: return walk_let(g, e);
  case IR_EXPR_CALL: return walk_call(g, e);
  case IR_EXPR_GLOBAL: return refuse(g, e, ir_printf("uses `@%s` as a value", e->u.name->name));
  case IR_EXPR_OP: return refuse(g, e, ir_printf("uses the operator `%s` as a value", ir_ops[e->u.op].name));
  case IR_EXPR_CTOR: return refuse(g, e, ir_printf("builds a `%s`", e->u.name->name));
  case IR_EXPR_FN: return refuse(g, e, "makes a function (fn)");
  case IR_EXPR_IF: return refuse(g, e, "branches (if)");
  case IR_EXPR_MATCH: return refuse(g, e, "branches (match)");
  case IR_EXPR_REF:
  case IR_EXPR_REF_READ:
  case IR_EXPR_REF_WRITE: return refuse(g, e, "uses references");
  case IR_EXPR_FREE: return refuse(g, e, "has a free variable");
  }
  UNREACHABLE("an expression of no kind");
  return refuse(g, e, "has an expression of no kind");
}

/* Whether values of type t may be drawn: tensors, tuples of them, and what is not known yet; not
 * functions, data types or references. */
static bool tensor_only(const IrType *t) {
  if (!t) return true;
  switch (t->kind) {
  case IR_TYPE_FUNC:
  case IR_TYPE_CALL:
  case IR_TYPE_REF: return false;
  case IR_TYPE_TUPLE:
    for (int i = 0; i < t->u.tuple.n; i++)
      if (!tensor_only(t->u.tuple.fields[i])) return false;
    return true;
  default: return true;
  }
}

/* ---------------------------------------------------------------- the types */

static void note_types(IrTExpr *e, void *env);

/* Every node of a checked function, mapped from the node it was checked from to its type. */
static void note_types(IrTExpr *e, void *env) {
  IrPtrMap *types = env;
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) { /* a loop: chains can be long */
    if (e->type) ir_ptrmap_put(types, e->src, e->type);
    note_types(e->u.let.value, env);
  }
  if (e->type) ir_ptrmap_put(types, e->src, e->type);
  if (e->kind != IR_EXPR_FN) ir_texpr_each_child(e, note_types, env);
}

/* ---------------------------------------------------------------- writing */

/* text as a DOT string's contents: quotes and backslashes escaped, line breaks as \n. */
static void put_dot_string(IrBuf *b, const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '"' || *p == '\\') ir_buf_putc(b, '\\');
    if (*p == '\n') ir_buf_puts(b, "\\n");
    else ir_buf_putc(b, *p);
  }
}

static bool same_span(IrSpan a, IrSpan b) { return a.src == b.src && a.off == b.off && a.len == b.len; }

static bool inside(IrSpan a, IrSpan in) { return a.src == in.src && a.off >= in.off && a.off + a.len <= in.off + in.len; }

/* Which node or edge the error at `at` is: the node of that span, else the edge of that span (an
 * argument of the wrong type), else the narrowest node around it. */
static void locate(const Graph *g, IrSpan at, int *node, int *edge) {
  *node = *edge = -1;
  for (int i = 0; i < g->nodes.len && *node < 0; i++)
    if (g->nodes.items[i].expr && same_span(g->nodes.items[i].expr->span, at)) *node = i;
  for (int i = 0; i < g->edges.len && *node < 0 && *edge < 0; i++)
    if (same_span(g->edges.items[i].use->span, at)) *edge = i;
  for (int i = 0; i < g->nodes.len && *node < 0 && *edge < 0; i++) {
    const IrExpr *e = g->nodes.items[i].expr;
    if (e && inside(at, e->span) && (*node < 0 || e->span.len < g->nodes.items[*node].expr->span.len)) *node = i;
  }
}

static const char red[] = ", color=red, fontcolor=red, penwidth=2";

/* note: a title for the graph (in black), or NULL. */
static const char *write_dot(const Graph *g, const char *error, IrSpan at, const char *note) {
  int bad_node = -1, bad_edge = -1;
  if (error) locate(g, at, &bad_node, &bad_edge);
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "digraph \"");
  put_dot_string(&b, ir_printf("@%s", g->def->name->name));
  ir_buf_puts(&b, "\" {\n");
  ir_buf_puts(&b, "  fontname=\"Helvetica\";\n  node [shape=box, fontname=\"Helvetica\"];\n"
                 "  edge [fontname=\"Helvetica\", fontsize=10];\n");
  if (error) {
    ir_buf_puts(&b, "  labelloc=t;\n  fontcolor=red;\n  label=\"");
    put_dot_string(&b, ir_printf("type error at %s: %s", ir_span_place(at), cut(error, 100)));
    ir_buf_puts(&b, "\";\n");
  } else if (note) {
    ir_buf_puts(&b, "  labelloc=t;\n  label=\"");
    put_dot_string(&b, note);
    ir_buf_puts(&b, "\";\n");
  }
  for (int i = 0; i < g->nodes.len; i++) {
    const Node *n = &g->nodes.items[i];
    ir_buf_printf(&b, "  n%d [label=\"", i);
    put_dot_string(&b, n->label);
    ir_buf_printf(&b, "\"%s%s%s];\n", strcmp(n->shape, "box") ? ", shape=" : "", strcmp(n->shape, "box") ? n->shape : "",
                  i == bad_node ? red : "");
  }
  ir_buf_puts(&b, "  result [shape=ellipse, style=bold];\n");
  for (int i = 0; i < g->edges.len; i++) {
    const Edge *e = &g->edges.items[i];
    const IrType *t = ir_ptrmap_get(g->types, e->use);
    ir_buf_printf(&b, "  n%d -> ", e->from);
    if (e->to < g->nodes.len) ir_buf_printf(&b, "n%d", e->to);
    else ir_buf_puts(&b, "result");
    if (t) {
      ir_buf_puts(&b, " [label=\"");
      put_dot_string(&b, cut(ir_type_str(t), TYPE_CHARS));
      ir_buf_printf(&b, "\"%s];\n", i == bad_edge ? red : "");
    } else { /* checking stopped before it */
      ir_buf_printf(&b, " [style=dashed, color=gray%s];\n", i == bad_edge ? ", penwidth=2" : "");
    }
  }
  ir_buf_puts(&b, "}\n");
  return b.data;
}

const char *repl_graph_dot(Session *s, Sym name) {
  Graph g = {0};
  const IrTDef *def = ty_global_def(s->module, name);
  const IrType *fn_type = NULL;
  /* A definition of the name that failed: drawn, with what checking found before the error, when
   * no definition of the name is in use; else the graph is of the one in use, which calls, :t and
   * :annot use too, and its title says that the redefinition failed. */
  const SessionFailedDef *fd = session_failed_def(s, name);
  bool failed = fd && !def;
  const char *note = NULL;
  if (def && fd)
    note = ir_printf("the redefinition at %s failed: this is the definition in use, from %s", ir_span_place(fd->def->span),
                     ir_span_place(def->item->span));
  if (failed) { /* the definition that failed, with what checking found before the error */
    g.def = fd->def;
    g.types = ty_partial_types(s->module, fd->prog);
  } else if (def) {
    g.def = def->item;
    g.types = IR_NEW(IrPtrMap);
    note_types(def->fn->body, g.types);
    fn_type = def->fn->type;
  } else {
    fprintf(s->err, "<repl>: nothing is named `@%s` (:browse lists the definitions)\n", name->name);
    return NULL;
  }
  const IrFn *fn = &g.def->fn->u.fn;
  for (int i = 0; i < fn->nparams; i++) {
    const IrParam *p = &fn->params[i];
    const IrType *t = fn_type ? fn_type->u.func.args[i] : p->ann;
    if (!tensor_only(t)) {
      fprintf(s->err, "<repl>: `@%s` cannot be drawn: its parameter `%%%s` is %s (%s); :graph draws first-order "
              "functions of tensors\n",
              name->name, p->name->name, t->kind == IR_TYPE_FUNC ? "a function" : "not a tensor", ir_type_str(t));
      return NULL;
    }
    ir_symmap_put(&g.scope, p->name, (void *)(intptr_t)(add_node(&g, NULL, ir_printf("%%%s", p->name->name), "ellipse") + 1));
  }
  int body = walk(&g, fn->body);
  const IrExpr *last = fn->body;
  while (last->kind == IR_EXPR_LET) last = last->u.let.body;
  if (body >= 0) add_edge(&g, body, g.nodes.len, last); /* to the result */
  for (int i = 0; i < g.edges.len && !g.refused; i++) {
    const IrType *t = ir_ptrmap_get(g.types, g.edges.items[i].use);
    if (!tensor_only(t)) refuse(&g, g.edges.items[i].use, ir_printf("passes a value of type %s", ir_type_str(t)));
  }
  if (g.refused) {
    fprintf(s->err, "<repl>: %s\n", g.refused);
    return NULL;
  }
  return write_dot(&g, failed ? fd->message : NULL, fd ? fd->span : (IrSpan){0}, note);
}

/* ---------------------------------------------------------------- rendering */

/* Whether file can be written, said in relay's words rather than dot's (a file made to find out is
 * removed again: without `dot` nothing is left behind). */
static bool writable(Session *s, const char *file) {
  int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0666);
  bool made = fd >= 0;
  if (fd < 0 && errno == EEXIST) fd = open(file, O_WRONLY);
  if (fd < 0) {
    fprintf(s->err, "<repl>: cannot write %s: %s\n", file, strerror(errno));
    return false;
  }
  close(fd);
  if (made) unlink(file);
  return true;
}

bool repl_graph_render(Session *s, const char *dot, const char *file) {
  const char *ext = strrchr(file, '.');
  if (!ext || (strcmp(ext, ".svg") && strcmp(ext, ".png") && strcmp(ext, ".pdf"))) {
    fprintf(s->err, "<repl>: :graph writes FILE.svg, FILE.png or FILE.pdf, not `%s`\n", file);
    return false;
  }
  if (!writable(s, file)) return false;
  int fds[2];
  if (pipe(fds) != 0) {
    fprintf(s->err, "<repl>: cannot run dot: %s\n", strerror(errno));
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  const char *format = ir_printf("-T%s", ext + 1);
  char *argv[] = {"dot", (char *)format, "-o", (char *)file, NULL};
  extern char **environ;
  pid_t pid;
  int err = posix_spawnp(&pid, "dot", &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[0]);
  if (err) {
    close(fds[1]);
    if (err == ENOENT)
      fputs("<repl>: Graphviz's `dot` is not installed, so :graph cannot write a file (Debian: apt-get install "
            "graphviz); :graph @f without a file prints the DOT text\n",
            s->err);
    else fprintf(s->err, "<repl>: cannot run dot: %s\n", strerror(err));
    return false;
  }
  size_t len = strlen(dot), done = 0;
  while (done < len) { /* SIGPIPE is ignored (main.c): a dot that dies early is an error here */
    ssize_t w = write(fds[1], dot + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += (size_t)w;
  }
  close(fds[1]);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      fprintf(s->err, "<repl>: waiting for dot: %s\n", strerror(errno));
      return false;
    }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(s->err, "<repl>: dot failed (%s %d) writing %s\n", WIFEXITED(status) ? "exit status" : "signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), file);
    return false;
  }
  fprintf(s->out, "wrote %s\n", file);
  return true;
}
