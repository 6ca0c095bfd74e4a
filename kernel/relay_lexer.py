"""A Pygments lexer for Relay, made at import time from the TextMate grammar (editors/relay.tmLanguage.json).

One grammar serves VS Code, the other TextMate editors and Pygments (nbconvert's and Sphinx's
highlighting, Jupyter's consoles): each begin/end rule becomes a lexer state whose end is tried
first, each match rule a rule of the states that include it, and each scope a Pygments token
(token_for_scopes). A TextMate tokenizer takes, at each place, the earliest match of the rules in
order; a RegexLexer tries the rules in order at the place itself and gives one character the
state's token when none matches there, which comes to the same tokens. Oniguruma's regular
expressions read one line at a time; the few places where Python's would cross a line break (`\\s`,
negated classes) are narrowed to the line (python_regex). tests/editors/pygments_test.py checks
that both give every character of the grammar's tests and of the golden files the same token.

`meson install` installs this file as the package relay_pygments with the grammar beside it and
registers it with Pygments (an entry point), so that `pygments.lexers.get_lexer_by_name("relay")`
finds it; the kernel then names it in its language_info.
"""
import json
import os
import re

from pygments.lexer import RegexLexer
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Text

HERE = os.path.dirname(os.path.abspath(__file__))
GRAMMAR_PLACES = [os.path.join(HERE, "relay.tmLanguage.json"),
                  os.path.join(os.path.dirname(HERE), "editors", "relay.tmLanguage.json")]

# Scope prefixes, most specific first, and their tokens; None passes to the enclosing scope (a
# string's quote is the string's, a comment's marker the comment's).
SCOPE_TOKENS = [
    ("invalid", Error),
    ("punctuation.definition.comment", None),
    ("comment.block", Comment.Multiline),
    ("comment", Comment.Single),
    ("constant.character.escape", String.Escape),
    ("punctuation.definition.string", None),
    ("support.type.property-name", Name.Tag),
    ("string", String.Double),
    ("constant.numeric.float", Number.Float),
    ("constant.numeric", Number.Integer),
    ("constant.language", Keyword.Constant),
    ("keyword.control", Keyword),
    ("keyword.operator", Operator),
    ("keyword.other.let", Keyword.Declaration),
    ("keyword.other.free-var", Keyword.Declaration),
    ("keyword.other", Keyword),
    ("storage", Keyword.Declaration),
    ("variable.other.hole", Name.Label),
    ("variable.other", Name.Variable),
    ("variable.language", Name.Builtin.Pseudo),
    ("variable.parameter", Name.Attribute),
    ("entity.name.function.constructor", Name.Class),
    ("entity.name.function", Name.Function),
    ("entity.name.type", Keyword.Type),
    ("support.function", Name.Builtin),
    ("support.type", Keyword.Type),
    ("punctuation", Punctuation),
]


def token_for_scopes(scopes):
    """The token of a piece of text whose scopes are scopes (outermost first)."""
    for scope in reversed(scopes):
        for prefix, token in SCOPE_TOKENS:
            if scope == prefix or scope.startswith(prefix + "."):
                if token is not None:
                    return token
                break
    return Text


def python_regex(onig):
    """An Oniguruma pattern of the grammar as Python's re reads it, kept within one line: `\\s`
    outside a class and a negated class do not match a line break."""
    out = []
    i, n, in_class, negated = 0, len(onig), False, False
    while i < n:
        c = onig[i]
        if c == "\\" and i + 1 < n:
            pair = onig[i:i + 2]
            out.append("[^\\S\\n]" if pair == "\\s" and not in_class else pair)
            i += 2
            continue
        if not in_class and c == "[":
            in_class = True
            negated = onig.startswith("[^", i)
            out.append("[^" if negated else "[")
            i += 2 if negated else 1
            if i < n and onig[i] == "]":  # a `]` first in a class is itself
                out.append("]")
                i += 1
            continue
        if in_class and c == "]":
            if negated:
                out.append("\\n")
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


class _Builder:
    """Turns the grammar into RegexLexer states."""

    def __init__(self, grammar):
        self.repo = grammar.get("repository", {})
        self.states = {}
        self.region_names = {}  # id(rule) -> state name
        self.states["root"] = self.rules(grammar["patterns"], [grammar["scopeName"]])

    def expand(self, patterns):
        """The rules of patterns, includes replaced by what they name."""
        for p in patterns:
            inc = p.get("include")
            if inc is None:
                yield p
            elif inc.startswith("#"):
                entry = self.repo[inc[1:]]
                yield from (self.expand(entry["patterns"]) if "patterns" in entry and
                            "match" not in entry and "begin" not in entry else [entry])
            # `$self` and other grammars: the grammar uses none

    def rules(self, patterns, scopes):
        out = []
        for p in self.expand(patterns):
            if "match" in p:
                own = scopes + ([p["name"]] if "name" in p else [])
                out.append((python_regex(p["match"]), self.emitter(own, p.get("captures", {}))))
            elif "begin" in p:
                own = scopes + ([p["name"]] if "name" in p else [])
                state = self.region(p, own)
                captures = p.get("beginCaptures", p.get("captures", {}))
                out.append((python_regex(p["begin"]), self.emitter(own, captures), state))
        return out + [(r"\n|.", token_for_scopes(scopes))]

    def region(self, rule, scopes):
        key = id(rule)
        if key not in self.region_names:
            name = "region%d" % len(self.region_names)
            self.region_names[key] = name
            inner = scopes + ([rule["contentName"]] if "contentName" in rule else [])
            end_captures = rule.get("endCaptures", rule.get("captures", {}))
            self.states[name] = None  # a region that contains itself refers to its own name
            self.states[name] = [(python_regex(rule["end"]), self.emitter(scopes, end_captures), "#pop")] + \
                self.rules(rule.get("patterns", []), inner)
        return self.region_names[key]

    def emitter(self, scopes, captures):
        """A RegexLexer callback giving each capture its token and the rest of the match the rule's."""
        base = token_for_scopes(scopes)
        groups = []
        for key, cap in captures.items():
            sub = [(re.compile(r[0], re.MULTILINE), r[1]) for r in self.rules(cap["patterns"], scopes)] \
                if "patterns" in cap else None
            token = token_for_scopes(scopes + ([cap["name"]] if "name" in cap else []))
            groups.append((int(key), token, sub))
        groups.sort()
        if not groups:
            return base

        def emit(lexer, match):
            pieces = []  # (start, end, token, sub-rules), outer groups first
            for g, token, sub in groups:
                if g <= (match.re.groups or 0) and match.start(g) >= 0 and match.end(g) > match.start(g):
                    pieces.append((match.start(g), match.end(g), token, sub))
            marks = sorted({match.start(), match.end()} | {p[0] for p in pieces} | {p[1] for p in pieces})
            for a, b in zip(marks, marks[1:]):
                inner = [p for p in pieces if p[0] <= a and b <= p[1]]
                # the innermost capture: the shortest that holds the piece
                p = min(inner, key=lambda q: q[1] - q[0]) if inner else None
                text = match.string[a:b]
                if p and p[3] is not None:
                    yield from _lex_capture(lexer, p[3], text, a)
                else:
                    yield a, (p[2] if p else base), text

        return emit


def _lex_capture(lexer, rules, text, offset):
    """Tokens of a capture that has patterns of its own (a name, in the grammar): its match rules
    tried at each place, as in a state (a begin rule gives only its begin's tokens)."""
    pos = 0
    while pos < len(text):
        for rex, action in rules:
            m = rex.match(text, pos)
            if m and m.end() > pos:
                if callable(action) and not isinstance(action, type(Text)):
                    for p, token, value in action(lexer, m):
                        yield offset + p, token, value
                else:
                    yield offset + pos, action, m.group()
                pos = m.end()
                break


def _load_states():
    for path in GRAMMAR_PLACES:
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return _Builder(json.load(f)).states
    raise ImportError("relay_lexer: no relay.tmLanguage.json beside it or in ../editors")


class RelayLexer(RegexLexer):
    """TVM's Relay language (relay's `.rly` files, TVM's text format 0.0.5 and its dumps)."""

    name = "Relay"
    aliases = ["relay"]
    filenames = ["*.rly"]
    mimetypes = ["text/x-relay"]
    url = "https://tvm.apache.org/docs/reference/langref/relay_expr.html"
    flags = re.MULTILINE
    tokens = _load_states()
