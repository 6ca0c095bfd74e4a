/* JSON (RFC 8259): a reader into a tree on the GC heap, and the writing of strings and trees. TVM's
 * `#[metadata]` section (meta.c) and `relay --serve`'s requests (repl/serve.c) are read with it. */
#ifndef IR_JSON_H
#define IR_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/mem.h"

typedef enum { IR_JSON_NULL, IR_JSON_BOOL, IR_JSON_NUMBER, IR_JSON_STRING, IR_JSON_ARRAY, IR_JSON_OBJECT } IrJsonKind;

typedef struct IrJson IrJson;
typedef struct IrJsonMember {
  const char *key; /* decoded, NUL-terminated (a key may hold a NUL of its own: klen counts) */
  size_t klen;
  IrJson *val;
} IrJsonMember;

struct IrJson {
  IrJsonKind kind;
  bool b;        /* BOOL */
  bool integer;  /* NUMBER: no fraction, no exponent */
  size_t off;    /* where the value starts in the text */
  const char *s; /* STRING: decoded bytes, NUL-terminated; NUMBER: the number's text (not terminated) */
  size_t len;
  int n;                 /* ARRAY, OBJECT */
  IrJson **items;        /* ARRAY */
  IrJsonMember *members; /* OBJECT */
};

/* Why a text is not JSON: the message (`expected ',' or ']' after an array's element`), the byte
 * offset of the fault, and whether it is that the text ended (more text might complete it). */
typedef struct IrJsonError {
  const char *message;
  size_t off;
  bool cut_short;
} IrJsonError;

/* Reads text (len bytes) as one JSON value with only whitespace around it. Arrays and objects
 * nest at most max_depth deep; the reader is iterative, so nesting costs no C stack. NULL when the
 * text is not JSON, with *err saying why and where. Allocates on the GC heap (out of memory unwinds
 * to the caller's trap, as every allocation does). */
IrJson *ir_json_parse(const char *text, size_t len, int max_depth, IrJsonError *err);
/* The member `key` of an object (the first of that name), or NULL. */
IrJson *ir_json_get(const IrJson *object, const char *key);
/* `null`, `a boolean`, `a number`, `a string`, `an array`, `an object`: for messages. */
const char *ir_json_kind_name(IrJsonKind kind);

/* Writes s (len bytes) as a JSON string literal, quotes included: `"`, `\` and control characters
 * escaped, and each byte that is not part of valid UTF-8 as U+FFFD, so that the output is always
 * valid JSON. */
void ir_json_put_string(IrBuf *b, const char *s, size_t len);
/* Writes a value read by ir_json_parse back as JSON (NULL as null); nesting is the reader's, bounded. */
void ir_json_put(IrBuf *b, const IrJson *v);

#endif
