/* TVM's metadata section: what `mod.astext(show_meta_data=True)` appends after `#[metadata]`. It is
 * TVM's JSON node graph (SaveJSON: "root", "nodes", "b64ndarrays", "attrs"); the root is a Map from
 * a kind ("relay.Constant", "relay.attrs.Conv2DAttrs", ...) to an Array of nodes, and the program
 * text refers to entry i of a kind as `meta[KIND][i]`. Constants hold their data as base64 NDArrays
 * in TVM's binary save format; attribute nodes hold their fields by TVM's reflection, decoded here
 * into Relay attribute values. The section is parsed once, when its program is parsed. */
#ifndef IR_META_H
#define IR_META_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ast.h"

typedef enum {
  IR_META_CONSTANT, /* relay.Constant: a tensor */
  IR_META_ATTRS,    /* relay.attrs.*: an operator's attributes */
  IR_META_VAR,      /* tir.Var, tir.SizeVar: a shape variable (TVM prints one in a shape so) */
  IR_META_INT,      /* IntImm: a whole number */
  IR_META_OTHER,    /* anything else (VirtualDevice, other tir nodes, ...): only its type key is kept */
} IrMetaKind;

/* A constant tensor as the NDArray held it. */
typedef struct IrMetaTensor {
  IrDType dtype; /* lanes 1; bool is one byte an element */
  int rank;
  const int64_t *shape;
  int64_t count;    /* the product of the shape */
  const void *data; /* count elements, native byte order, from the collector's atomic heap */
} IrMetaTensor;

typedef struct IrMetaEntry {
  IrMetaKind kind;
  const char *type_key; /* "relay.Constant", "relay.attrs.BatchMatmulAttrs", ... */
  IrMetaTensor tensor;  /* CONSTANT */
  int nattrs;           /* ATTRS: the node's fields as Relay attributes (key = value), in TVM's */
  IrAttr *attrs;        /* declaration order; spans are 0. A field the node lacks, or that holds an
                         * object with no attribute value (not a number, string, Array or entry),
                         * is left out. An attrs type TVM v0.14 does not declare is OTHER. */
  Sym var;              /* VAR: its name, made an identifier and distinct from the section's other
                         * variables (TVM tells two variables of one name apart: the second `n`
                         * is `n_1`) */
  int64_t value;        /* INT */
} IrMetaEntry;

typedef struct IrMetaKindList {
  const char *key; /* "relay.Constant" */
  int n;
  IrMetaEntry *items;
} IrMetaKindList;

typedef struct IrMeta {
  int nkinds;
  IrMetaKindList *kinds;
  const char *tvm_version; /* "attrs": {"tvm_version": ...}, or NULL */
} IrMeta;

/* Parses a section's text: from just after `#[metadata]` to the end of the file. On error returns
 * NULL, with *error a message ("the metadata section is not valid JSON: ...", "b64ndarrays[3] is
 * not a TVM NDArray: ...") and *error_off the offset in text it is about. Inputs of any size or
 * nesting are handled without crashing; a truncated or corrupt section is an error, never a crash.
 * *cut_short (when not NULL) says whether the error is that the text ended early, so that more
 * text may complete it (the REPL reading a pasted section line by line). */
IrMeta *ir_meta_parse(const char *text, size_t len, const char **error, size_t *error_off, bool *cut_short);

/* Entry i of kind key (e.g. "relay.Constant"), or NULL when there is none. */
const IrMetaEntry *ir_meta_get(const IrMeta *m, const char *key, int64_t i);

#endif
