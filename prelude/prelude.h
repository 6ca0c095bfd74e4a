/* The Prelude's source text (prelude/prelude.rly), embedded into the binary at build time by
 * embed.py; the session parses and checks it at start-up. */
#ifndef PRELUDE_PRELUDE_H
#define PRELUDE_PRELUDE_H

#include <stddef.h>

/* The text, NUL-terminated, and its length without the NUL. */
extern const char relay_prelude_text[];
extern const size_t relay_prelude_length;

/* The name diagnostics give the Prelude's source. */
#define RELAY_PRELUDE_NAME "<prelude>"

#endif
