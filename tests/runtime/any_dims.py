#!/usr/bin/env python3
"""`?` and shape variables for the written dimensions of typed definitions (issue 29): a type that
type-checks must be true when the program runs.

Units. Every golden file with a typed definition (`def` or `fn` parameters with `Tensor[(...)]`) is a
unit as it is, run whole. Every top-level operator call of a golden file whose arguments are closed
tensor expressions is also lifted into a unit of its own, so that every relation meets the sweep:
`argsort([3, 1, 2])` becomes `def @lifted(%a0 : Tensor[(3), int32]) { argsort(%a0) }` and
`@lifted([3, 1, 2])` (the arguments' types from `relay --serve`'s `type`). A definition that its file
never calls gets a call with `ones` of its parameters' shapes (shape variables as 2, else 1, else 3).

Mutants. Each written dimension of a parameter type (a constant or a name) is replaced in turn by
`?`, by a fresh shape variable, by a name already used in the same signature (if the signature has
none: the fresh variable at that dimension and at another one, of the same size if there is one),
and by `?` while that other dimension becomes the fresh variable (`?` meeting a variable). The mutant
runs whole, as the base (the unit unchanged) does, with RELAY_CHECK_VALUES=1 (every top-level value
checked against its type: repl/session.c) and, in debug builds, the kernels' result-versus-type
check. A lifted mutant also calls its definition at other sizes of the replaced dimensions, with
`ones` there: all 1, all 0, all one more than the base's, and where a `?` and a variable meet, each 1
with the other as it was (the base's values fix every size, and a type that lies only for other
sizes needs other calls).

Oracle (a finding is any of):
  - a signal, an exit status other than 0 or 1, "internal error" (a kernel's result or a printed
    value that does not have its type, an ASSERT), or a UBSan report ("runtime error:");
  - the mutant type-checks and the base ran (cleanly, or to a run-time error): the mutant's items
    from the base must print what the base printed and fail at run time where and as the base did,
    or get past the base's run-time error (a `?` check the mutant's types no longer need); where both
    fail at one place by a run-time `?` check (ANY_CHECKS) in a text with a `?`, the wording may
    differ. The values are the base's, so a `?` or a shape variable the checker accepted defers
    nothing there;
  - in what is new (the calls at other sizes, what follows the base's run-time error, and every run of
    a mutant whose base did not type-check), a run-time error is deferred, not a finding, when the
    mutant's text or any type the checker found (`relay --annot`) has a `?` (`?` is checked at run
    time: that is what it means; dyn.* operators give one unwritten) or when it is
    one no type can catch (VALUE_ERRORS: an index out of range, an empty axis (a shape variable may be
    0 and no type says n >= 1), a division by zero, no matching clause, out of memory, a stack
    overflow, an interrupt, values of detection operators); any other run-time error of a mutant
    without `?` is a finding: its types claimed the shapes fit.
A mutant that does not type-check is no finding (the sweep counts those that do).

Findings are grouped by the lifted operator (or the file) and kind (crash, ubsan, kernel-check,
value-check, internal, differs, run-time), each shown with its shortest reproducer. Those listed in
any_dims_known.txt are reported but pass; a new kind fails the test, and so does (in a full sweep) a
listed kind that no longer occurs. CI runs a deterministic sample (a tenth of the mutants, and at
least one of every unit); RELAY_SWEEP_FULL=1 runs every mutant, RELAY_SWEEP_SEED=S another sample,
RELAY_SWEEP_FRACTION=F another share, RELAY_SWEEP_ONLY=TEXT only the files whose path contains TEXT,
RELAY_SWEEP_SAVE=DIR writes each kind's reproducer there, RELAY_SWEEP_VERBOSE=1 shows the known ones'
too. TAP.
Usage: any_dims.py RELAY TESTS_GOLDEN_DIR"""
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import time

relay, golden = sys.argv[1], sys.argv[2]
FULL = os.environ.get("RELAY_SWEEP_FULL", "") not in ("", "0")
FRACTION = float(os.environ.get("RELAY_SWEEP_FRACTION", "1" if FULL else "0.1"))
SEED = os.environ.get("RELAY_SWEEP_SEED", "1")
ONLY = os.environ.get("RELAY_SWEEP_ONLY", "")
SAVE = os.environ.get("RELAY_SWEEP_SAVE", "")
VERBOSE = os.environ.get("RELAY_SWEEP_VERBOSE", "") not in ("", "0")
KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "any_dims_known.txt")
AREAS = ("ops", "types", "typing", "type_errors", "eval", "seeds_eval", "seeds", "syntax", "soundness")
OPS_DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ir", "ops.def")
ENV = dict(os.environ, RELAY_CHECK_VALUES="1")
FRESH = "zq"  # a shape variable name no golden file uses (checked per file)
# Run-time errors no type could catch (for a mutant whose base did not type-check).
# The run-time `?` checks' messages (runtime/conform.c, exec.c): where a base and its mutant both fail
# at one place by such a check, the wording may differ (the mutant's place names another variable).
# A broadcast's kernel is Broadcast's check of a `?` (docs/typing.md): a `where Broadcast(...)` that a
# call met with `?` fails there, where the base's checked entry failed at the call.
ANY_CHECKS = re.compile(r"does not fit its place|do not agree on the sizes|a `\?` dimension disagrees|"
                        r"cannot broadcast the shapes")
VALUE_ERRORS = re.compile(r"out of range|beyond the data|division by zero|modulo by zero|divides by zero|no clause|"
                          r"out of memory|stack overflow|interrupted|empty|is not between|batch index|not a row start|"
                          r"no permutation|sum of the exponentials")

# ---------------------------------------------------------------- reading Relay text

TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|[%@]?[A-Za-z_][A-Za-z0-9_.]*|\d[A-Za-z0-9_.]*|'
                   r'->|=>|==|!=|<=|>=|&&|\|\||.', re.S)


def tokens(text):
    """(start, end, text, significant) of each token; whitespace and comments are not significant."""
    out = []
    for m in TOKEN.finditer(text):
        s = m.group(0)
        out.append((m.start(), m.end(), s, not (s.isspace() or s.startswith("//") or s.startswith("/*"))))
    return out


def significant(toks):
    return [t for t in toks if t[3]]


def matching(toks, i):
    """The index of the bracket closing toks[i]."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    open_, close, depth = toks[i][2], pairs[toks[i][2]], 0
    for j in range(i, len(toks)):
        if toks[j][2] == open_:
            depth += 1
        elif toks[j][2] == close:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def param_regions(text):
    """The parameter lists of every `def` and `fn` (token index ranges over the significant tokens),
    with the end of the signature (its `{`), for finding dimensions and the names they use."""
    toks = significant(tokens(text))
    regions = []
    for i, t in enumerate(toks):
        if t[2] not in ("def", "fn"):
            continue
        j = i + 1
        if t[2] == "def":
            if j >= len(toks) or not toks[j][2].startswith("@"):
                continue
            j += 1
        if j < len(toks) and toks[j][2] in ("<", "["):
            j = matching(toks, j) + 1
        if j >= len(toks) or toks[j][2] != "(":
            continue
        end = matching(toks, j)
        k = end + 1
        while k < len(toks) and toks[k][2] != "{":
            k += 1
        regions.append((j, end, k))
    return toks, regions


def shape_dims(toks, lo, hi):
    """Dimensions written in `Tensor[(...)` shapes between token indices lo and hi: (start, end, text)
    of each single-token dimension (a number or a name)."""
    dims = []
    i = lo
    while i < hi:
        if toks[i][2] == "Tensor" and i + 2 < hi and toks[i + 1][2] == "[" and toks[i + 2][2] == "(":
            close = matching(toks, i + 2)
            parts, cur, depth = [], [], 0
            for k in range(i + 3, close):
                depth += (toks[k][2] in "([") - (toks[k][2] in ")]")
                if toks[k][2] == "," and depth == 0:
                    parts.append(cur)
                    cur = []
                else:
                    cur.append(k)
            parts.append(cur)
            for p in parts:
                if len(p) == 1:
                    s = toks[p[0]][2]
                    if re.fullmatch(r"\d+(i64|i32)?", s) or re.fullmatch(r"[A-Za-z_]\w*", s):
                        dims.append((toks[p[0]][0], toks[p[0]][1], s))
            i = close
        i += 1
    return dims


def dims_by_signature(text):
    """[(signature dims, names used in the signature)] for every def/fn with tensor parameters."""
    toks, regions = param_regions(text)
    out = []
    for lo, hi, body in regions:
        dims = shape_dims(toks, lo, hi)
        if not dims:
            continue
        names = []
        for d in shape_dims(toks, lo, body):
            if not d[2][0].isdigit() and d[2] not in names:
                names.append(d[2])
        out.append((dims, names))
    return out


def items(text):
    """The top-level items: (start, end) character ranges. An item ends at a line break at bracket
    depth 0 unless the next token continues it (docs/syntax.md)."""
    toks = tokens(text)
    res, depth, start = [], 0, None
    cont = {"+", "*", "/", ".", "else", "=", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "%", ";", "=>", "->",
            ")", "]", "}", ","}
    for k, (s, e, txt, sig) in enumerate(toks):
        if sig:
            if start is None:
                start = s
            if txt in "([{":
                depth += 1
            elif txt in ")]}":
                depth -= 1
            last = e
        elif "\n" in txt and depth <= 0 and start is not None:
            nxt = next((t for t in toks[k + 1:] if t[3]), None)
            if nxt is None or nxt[2] not in cont:
                res.append((start, last))
                start, depth = None, 0
    if start is not None:
        res.append((start, last))
    return res


def split_args(text):
    """The top-level comma-separated parts of a call's argument text."""
    parts, depth, cur = [], 0, ""
    for s, e, t, sig in tokens(text):
        if t in "([{" and sig:
            depth += 1
        elif t in ")]}" and sig:
            depth -= 1
        if t == "," and depth == 0 and sig:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += t if sig else " "
    if cur.strip():
        parts.append(cur.strip())
    return parts


OP_NAMES = set(re.findall(r'^IR_OP\(\w+, "([^"]+)"', open(OPS_DEF).read(), re.M))

# ---------------------------------------------------------------- running

def run(text, args):
    try:
        p = subprocess.run([relay] + args + ["/dev/stdin"], input=text.encode(), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60, env=ENV)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def kind(rc, err):
    """How a run ended: crash, internal, type, parse, runtime, ok."""
    if rc == "timeout" or not isinstance(rc, int) or rc not in (0, 1):
        return "crash"
    if "internal error" in err or "runtime error:" in err:
        return "internal"
    if "type error:" in err or "parse error:" in err:
        return "type"
    if "run-time error:" in err:
        return "runtime"
    return "ok" if rc == 0 else "other"


def runtime_messages(err):
    """The run-time errors' messages without their places (`<stdin>:3:5:`)."""
    return [re.sub(r"^\S*:\d+:\d+: ", "", l) for l in err.splitlines() if "run-time error:" in l]


class Serve:
    """One `relay --serve` for the arguments' types."""

    def __init__(self):
        self.p = subprocess.Popen([relay, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        self.n = 0

    def type_of(self, expr):
        self.n += 1
        self.p.stdin.write(json.dumps({"id": self.n, "method": "type", "params": {"text": expr}}) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            return None
        r = json.loads(line).get("result") or {}
        return r.get("type") if r.get("ok") else None

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def plain_tensor_type(t):
    """Whether t is a tensor type or a tuple of them, with no variables or `?` (a lifted parameter)."""
    if not t or "fn" in t or "?" in t or "[" in t and not t.startswith(("Tensor[", "(")):
        return False
    words = re.findall(r"[A-Za-z_]\w*", t)
    return all(w == "Tensor" or re.fullmatch(r"(u?int|float|bfloat)\d+(x\d+)?|bool", w) for w in words) and "Tensor[" in t


# ---------------------------------------------------------------- units

def file_args(text):
    args = []
    for m in re.finditer(r"^\s*//\s*args:(.*)$", text, re.M):
        args += m.group(1).split()
    keep = [a for a in args if a in ("--no-prelude",)]
    if "--stack" in args:
        keep += ["--stack", args[args.index("--stack") + 1]]
    return keep


def is_runnable(text):
    return not re.search(r"^\s*//\s*args:.*(--print|-t |-e |--annot)", text, re.M)


def lifted_units(path, text, serve):
    """A unit per top-level operator call whose positional arguments are closed tensor expressions."""
    units = []
    for k, (a, b) in enumerate(items(text)):
        item = text[a:b]
        m = re.match(r"([A-Za-z_][\w.]*)\s*\(", item)
        if not m or m.group(1) not in OP_NAMES or "%" in item or "@" in item:
            continue
        toks = significant(tokens(item))
        open_at = next(i for i, t in enumerate(toks) if t[2] == "(")
        if matching(toks, open_at) != len(toks) - 1:
            continue
        inner = item[toks[open_at][1]:toks[-1][0]]
        parts = split_args(inner)
        params, call_args, body_args = [], [], []
        for p in parts:
            if re.match(r"^[A-Za-z_]\w*\s*=", p):
                body_args.append(p)
                continue
            t = serve.type_of(p)
            if plain_tensor_type(t) and "Tensor[(" in t:
                name = "%%a%d" % len(params)
                params.append("%s : %s" % (name, t))
                call_args.append(p)
                body_args.append(name)
            else:
                body_args.append(p)
        if not params:
            continue
        line = text.count("\n", 0, a) + 1
        unit = ("// lifted from %s:%d\ndef @lifted(%s) {\n  %s(%s)\n}\n@lifted(%s)\n" %
                (os.path.relpath(path, golden), line, ", ".join(params), m.group(1), ", ".join(body_args),
                 ", ".join(call_args)))
        units.append(("%s:%d" % (os.path.relpath(path, golden), line), m.group(1), unit, params, call_args))
    return units


def call_units(path, text, args):
    """Calls for the file's definitions that it never calls, each parameter `ones` of its shape."""
    units = []
    for m in re.finditer(r"^def @(\w+)\s*\(", text, re.M):
        name = m.group(1)
        if re.search(r"@%s\s*\(" % re.escape(name), text[m.end():]) or re.search(r"@%s\b" % re.escape(name), text[:m.start()]):
            continue
        toks = significant(tokens(text[m.end() - 1:]))
        close = matching(toks, 0)
        ptext = text[m.end() - 1 + toks[0][1]:m.end() - 1 + toks[close][0]]
        params = split_args(ptext)
        shapes = []
        for p in params:
            pm = re.fullmatch(r"%\w+\s*:\s*Tensor\[\(([^()]*)\),\s*(\w+)\]", p)
            if not pm:
                shapes = None
                break
            dims = [d.strip() for d in pm.group(1).split(",") if d.strip()]
            if not all(re.fullmatch(r"\d+|[A-Za-z_]\w*", d) for d in dims):
                shapes = None
                break
            shapes.append((dims, pm.group(2)))
        if not shapes:
            continue
        for size in (2, 1, 3):
            call = "@%s(%s)" % (name, ", ".join(
                "ones(shape=[%s], dtype=\"%s\")" % (", ".join(d if d.isdigit() else str(size) for d in dims), dt)
                for dims, dt in shapes))
            unit = text + "\n" + call + "\n"
            if kind(*run(unit, args)[::2]) == "ok":
                units.append(("%s @%s" % (os.path.relpath(path, golden), name), unit))
                break
    return units


def mutants(text):
    """(description, mutated text, has `?` anywhere) for each dimension and each substitute."""
    fresh = FRESH
    while re.search(r"\b%s\b" % fresh, text):
        fresh += "q"
    out = []
    for dims, names in dims_by_signature(text):
        for i, (a, b, s) in enumerate(dims):
            line = text.count("\n", 0, a) + 1
            subs = [("?", [(a, b)]), (fresh, [(a, b)])]
            others = [n for n in names if n != s]
            if others:
                subs.append((others[0], [(a, b)]))
            if len(dims) > 1:
                same = [d for j, d in enumerate(dims) if j != i and d[2] == s]
                other = same[0] if same else dims[(i + 1) % len(dims)]
                if not others:
                    subs.append((fresh, [(a, b), (other[0], other[1])]))
                subs.append(("?", [(a, b)], fresh, [(other[0], other[1])]))  # `?` meets a variable
            for sub in subs:
                edits = [(pa, pb, sub[0]) for pa, pb in sub[1]] + ([(pa, pb, sub[2]) for pa, pb in sub[3]] if len(sub) > 2 else [])
                t = text
                for pa, pb, rep in sorted(edits, reverse=True):
                    t = t[:pa] + rep + t[pb:]
                what = "line %d: %s" % (line, ", ".join("%s -> %s" % (text[pa:pb], rep) for pa, pb, rep in edits))
                out.append((what, t, "?" in t))
    return out


def extra_calls(mtext, params, call_args):
    """Calls of a lifted mutant at other sizes of its substituted dimensions: all 1, all 0, all one
    more than the base's, and when a `?` and a variable meet, each of them 1 with the other as it was
    (the base's values fix every size, so a type that lies only for other sizes needs other calls)."""
    m = re.search(r"def @lifted\((.*)\) \{", mtext)
    if not m:
        return []
    mparams = [p.split(" : ", 1)[1] for p in split_args(m.group(1))]
    subst = []  # per parameter: None (unchanged or not a plain tensor), or [(base, new)] per dim
    for (ptext, mtype) in zip(params, mparams):
        btype = ptext.split(" : ", 1)[1]
        bm = re.fullmatch(r"Tensor\[\(([^()]*)\), (\w+)\]", btype)
        mm = re.fullmatch(r"Tensor\[\(([^()]*)\), (\w+)\]", mtype)
        if not bm or not mm or btype == mtype:
            subst.append(None)
            continue
        bd = [d.strip() for d in bm.group(1).split(",") if d.strip()]
        md = [d.strip() for d in mm.group(1).split(",") if d.strip()]
        subst.append((list(zip(bd, md)), bm.group(2)) if len(bd) == len(md) else None)
    if not any(subst):
        return []
    kinds = {new for x in subst if x for b, new in x[0] if b != new}
    choices = [lambda b, new: 1, lambda b, new: 0, lambda b, new: int(b) + 1]
    if "?" in kinds and len(kinds) > 1:
        choices += [lambda b, new: 1 if new != "?" else int(b), lambda b, new: 1 if new == "?" else int(b)]
    calls = []
    for choose in choices:
        args = []
        for x, arg in zip(subst, call_args):
            if not x:
                args.append(arg)
                continue
            dims, dt = x
            sizes = [str(choose(b, new)) if b != new and b.isdigit() else b if b.isdigit() else "1" for b, new in dims]
            args.append('ones(shape=[%s], dtype="%s")' % (", ".join(sizes), dt))
        calls.append("@lifted(%s)" % ", ".join(args))
    return calls


def sampled(key):
    if FRACTION >= 1:
        return True
    h = int(hashlib.sha256((SEED + "\0" + key).encode()).hexdigest()[:8], 16)
    return h < FRACTION * 0x100000000


# ---------------------------------------------------------------- the sweep

def error_line(err):
    """The line of the top-level item a run-time error unwound to: the largest line it names (the
    outermost call of its call chain)."""
    lines = [int(x) for x in re.findall(r"/dev/stdin:(\d+):\d+", err)]
    return max(lines) if lines else 0


def judge(base, mut, has_any, base_lines, mtext, args):
    """None, or (class, why) when the mutant's run is a finding. The mutant's first base_lines lines
    are the base's items (with a dimension replaced), the rest calls at other sizes."""
    (brc, bout, berr), (mrc, mout, merr) = base, mut
    mk = kind(mrc, merr)
    if mk == "crash":
        return "crash", "status %s" % mrc
    if mk == "internal":
        if "runtime error:" in merr:
            return "ubsan", "a UBSan report"
        if "the kernel of" in merr:
            return "kernel-check", "a kernel's result does not have its call's type"
        if "does not have its type" in merr:
            return "value-check", "a printed value does not have its type"
        return "internal", "an internal error"
    if mk in ("type", "other"):
        return None
    bk = kind(brc, berr)
    new_error = mk == "runtime"  # a run-time error in what is a new program
    if bk in ("ok", "runtime"):
        if not mout.startswith(bout):
            return "differs", "the mutant printed other values than the base"
        in_base = mk == "runtime" and error_line(merr) <= base_lines
        same_check = (has_any and bk == "runtime" and mout == bout and error_line(merr) == error_line(berr) and
                      all(ANY_CHECKS.search(m) for m in runtime_messages(merr)))
        if in_base and (runtime_messages(merr) != runtime_messages(berr) or mout != bout) and not same_check:
            return "differs", "the mutant failed at run time where the base did not, or otherwise"
        # The base part ran as the base did, or went past its run-time error (a `?` check its types
        # no longer need): what follows is a new program.
        new_error = mk == "runtime" and not in_base
    if new_error and not has_any:
        msgs = runtime_messages(merr)
        if not all(VALUE_ERRORS.search(m) for m in msgs) and not types_have_any(mtext, args):
            return "run-time", "a run-time error its types should have excluded (no `?` in the mutant's types)"
    return None


def types_have_any(text, args):
    """Whether a type the checker found has a `?` (an operator such as dyn.reshape gives one unwritten)."""
    rc, out, _ = run(text, args + ["--annot"])
    return rc != 0 or bool(re.search(r"ty=[^*]*\?", out))


def load_known(path):
    known = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            key = line.split("#", 1)[0].strip()
            if key:
                known[key] = line.strip()
    return known


def main():
    files = []
    for area in AREAS:
        files += sorted(glob.glob(os.path.join(golden, area, "*.rly")))
    t0 = time.time()
    serve = Serve()
    units = []  # (name, key: the operator or the file, text, args, lifted parameters, lifted arguments)
    for path in files:
        text = open(path, encoding="utf-8").read()
        if not is_runnable(text):
            continue
        args = file_args(text)
        rel = os.path.relpath(path, golden)
        if ONLY and ONLY not in rel:
            continue
        if dims_by_signature(text):
            units.append((rel, rel, text, args, None, None))
            units += [(n, rel, u, args, None, None) for n, u in call_units(path, text, args)]
        units += [(n, op, u, args, p, c) for n, op, u, p, c in lifted_units(path, text, serve)]
    serve.close()
    t1 = time.time()
    counts = dict(mutants=0, typed=0)
    findings = {}  # key: [count, the first finding's (where, why, text, run, base)]
    for name, key, text, args, params, call_args in units:
        muts = mutants(text)
        chosen = [m for m in muts if sampled(name + "\0" + m[0])]
        if not chosen and muts and FRACTION < 1:  # every unit meets the sweep at least once
            chosen = [min(muts, key=lambda m: hashlib.sha256((SEED + name + m[0]).encode()).hexdigest())]
        if not chosen:
            continue
        base = run(text, args)
        bk = kind(base[0], base[2])
        if bk in ("crash", "internal"):
            findings.setdefault(key + ": base " + bk, [0, (name, "the unit itself fails", text, base, base)])[0] += 1
            continue
        base_lines = len(text.splitlines())
        for what, mtext, has_any in chosen:
            counts["mutants"] += 1
            if params:
                mtext = mtext + "".join(c + "\n" for c in extra_calls(mtext, params, call_args))
            res = run(mtext, args)
            counts["typed"] += kind(res[0], res[2]) != "type"
            verdict = judge(base, res, has_any, base_lines, mtext, args)
            if verdict:
                f = findings.setdefault(key + ": " + verdict[0], [0, (name + ", " + what, verdict[1], mtext, res, base)])
                f[0] += 1
                if len(mtext) < len(f[1][2]):  # the shortest reproducer
                    f[1] = (name + ", " + what, verdict[1], mtext, res, base)
    known = load_known(KNOWN)
    new = sorted(k for k in findings if k not in known)
    gone = sorted(k for k in known if k not in findings and (FRACTION >= 1 and not ONLY))
    print("1..2")
    print("%s 1 - %d units, %d mutants (%s), %d type-checked: %d kinds of finding, %d not in %s (%.0f s, %.0f s "
          "making the units)" % ("ok" if not new else "not ok", len(units), counts["mutants"],
                                  "all" if FRACTION >= 1 else "sample %.2f, seed %s" % (FRACTION, SEED),
                                  counts["typed"], len(findings), len(new), os.path.basename(KNOWN), time.time() - t0,
                                  t1 - t0))
    for k in sorted(findings, key=lambda k: (k in known, k)):
        n, (where, why, mtext, res, base) = findings[k]
        print("# %s %s (%d mutants): %s" % ("KNOWN" if k in known else "FINDING", k, n, why))
        print("#   %s" % where)
        if k not in known or VERBOSE:
            print("#   base: status %s, printed %r, stderr %r" % (base[0], base[1][-200:], base[2].strip()[-300:]))
            print("#   mutant: status %s, printed %r, stderr %r" % (res[0], res[1][-300:], res[2].strip()[-600:]))
            if len(mtext) < 2000:
                print("#   " + mtext.rstrip().replace("\n", "\n#   "))
        if SAVE:
            os.makedirs(SAVE, exist_ok=True)
            name = re.sub(r"[^\w.-]+", "_", k) + ".rly"
            with open(os.path.join(SAVE, name), "w") as out:
                out.write("// %s: %s\n// %s\n%s" % (k, why, where, mtext))
    print("%s 2 - every finding %s lists still occurs%s" % ("ok" if not gone else "not ok", os.path.basename(KNOWN),
                                                            "" if FRACTION >= 1 and not ONLY else
                                                            " # SKIP only a full sweep (RELAY_SWEEP_FULL=1) tells"))
    for k in gone:
        print("# no longer found (remove it from the list): %s" % known[k])
    sys.exit(1 if new or gone else 0)


main()
