/* :graph — a first-order tensor function's dataflow as a Graphviz graph (DOT): a node per
 * parameter, operator call, call of another global and constant, each edge labelled with the type
 * of the value it carries, as the checker found it. */
#ifndef REPL_GRAPH_H
#define REPL_GRAPH_H

#include "repl/session.h"

/* The DOT text of the global `name`: the definition in use, which calls, :t and :annot use (its
 * title says so when a later definition of the name failed); or, when the name has none and the
 * session's last type error in a definition was in a definition of `name`, that one, the failing
 * node red and the edges after it, which checking did not reach, dashed. NULL, after printing
 * why, when there is no such global or it is not a first-order function of tensors. */
const char *repl_graph_dot(Session *s, Sym name);
/* Writes `dot` as `file` through Graphviz's `dot` program, in the format its extension names
 * (svg, png, pdf); false, after printing why (on s->err), when `dot` is not installed or fails. */
bool repl_graph_render(Session *s, const char *dot, const char *file);

#endif
