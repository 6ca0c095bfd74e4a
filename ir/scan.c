/* The line scanner (scan.h): bracket depth over the lexer's rules for what is not code. It must read
 * comments, strings and the `#[metadata]` section exactly as ir/lexer.c does: change both together. */
#include "ir/scan.h"

#include <string.h>

void ir_scan_init(IrScan *sc) { memset(sc, 0, sizeof *sc); }

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* Whether `#[` at s[i] starts TVM's metadata section (as the lexer's metadata_section: `#[`,
 * blanks, `metadata`, blanks, `]`); *after is then the offset just past the `]`. */
static bool metadata_at(const char *s, size_t len, size_t i, size_t *after) {
  i += 2;
  while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
  if (len - i < 8 || memcmp(s + i, "metadata", 8) != 0) return false;
  for (i += 8; i < len && (s[i] == ' ' || s[i] == '\t'); i++) {}
  if (i >= len || s[i] != ']') return false;
  *after = i + 1;
  return true;
}

static void open_bracket(IrScan *sc, char closer) {
  if (sc->depth < IR_SCAN_KINDS) sc->open[sc->depth] = closer;
  sc->depth++;
}

static void close_bracket(IrScan *sc, char c) {
  if (sc->depth == 0 || (sc->depth <= IR_SCAN_KINDS && sc->open[sc->depth - 1] != c)) sc->broken = true;
  if (sc->depth > 0) sc->depth--;
}

/* Skips a string whose opening quote is at s[i] (Relay's and JSON's: a backslash escapes the next
 * character); returns the offset after its closing quote, or len when the line ends inside it. */
static size_t skip_string(IrScan *sc, const char *s, size_t len, size_t i) {
  for (i++; i < len; i++) {
    if (s[i] == '\\') i++;
    else if (s[i] == '"') return i + 1;
  }
  sc->broken = true; /* a string ends on its line: the lexer reports it */
  return len;
}

/* Skips block comments from s[i] while sc->comments > 0 (the lexer's loop: `/` `*` opens one more,
 * `*` `/` closes one); returns where code goes on. */
static size_t skip_comment(IrScan *sc, const char *s, size_t len, size_t i) {
  while (sc->comments > 0 && i < len) {
    if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
      sc->comments++;
      i += 2;
    } else if (s[i] == '*' && i + 1 < len && s[i + 1] == '/') {
      sc->comments--;
      i += 2;
    } else {
      i++;
    }
  }
  return i;
}

/* The JSON of the metadata section: brackets and strings. */
static void scan_json(IrScan *sc, const char *s, size_t len, size_t i) {
  while (i < len) {
    char c = s[i];
    if (c == '"') {
      i = skip_string(sc, s, len, i);
      continue;
    }
    if (c == '{' || c == '[') open_bracket(sc, c == '{' ? '}' : ']');
    else if (c == '}' || c == ']') close_bracket(sc, c);
    i++;
  }
}

/* A line that ends with one of these wants more: a binary or prefix operator (`&` and `|` end `&&`
 * and `||`), `=`, `,`, `:` (a type follows), or `;` (an expression). Not `>`, which ends a complete
 * `extern type Box<a>` as well as `->`. */
static bool wants_more(char c) { return c && strchr("+-*/%<=!&|,:;", c); }

bool ir_scan_line(IrScan *sc, const char *s, size_t len) {
  size_t i = 0;
  char last = 0; /* the line's last character of code */
  if (sc->meta) {
    scan_json(sc, s, len, 0);
    return sc->broken || sc->depth == 0;
  }
  while (i < len) {
    if (sc->comments > 0) {
      i = skip_comment(sc, s, len, i);
      continue;
    }
    char c = s[i], d = i + 1 < len ? s[i + 1] : '\n';
    if (blank(c)) {
      i++;
    } else if ((c == '/' && d == '/') || (c == '#' && d != '[')) {
      break; /* a line comment */
    } else if (c == '/' && d == '*') {
      sc->comments = 1;
      i += 2;
    } else if (c == '"') {
      i = skip_string(sc, s, len, i);
      last = c;
    } else if (c == '#') { /* `#[` */
      size_t after;
      if (metadata_at(s, len, i, &after)) {
        sc->meta = true;
        sc->continues = false;
        scan_json(sc, s, len, after);
        return sc->broken || sc->depth == 0;
      }
      open_bracket(sc, ']');
      last = '[';
      i += 2;
    } else {
      if (c == '(' || c == '[' || c == '{') open_bracket(sc, c == '(' ? ')' : c == '[' ? ']' : '}');
      else if (c == ')' || c == ']' || c == '}') close_bracket(sc, c);
      last = c;
      i++;
    }
  }
  if (last) sc->continues = wants_more(last); /* a line of comments or blanks leaves it as it was */
  return sc->broken || (sc->depth == 0 && sc->comments == 0 && !sc->continues);
}
