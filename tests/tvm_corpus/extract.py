#!/usr/bin/env python3
"""Extracts the Relay program texts in TVM v0.14's own repository, one file each.

Usage: extract.py [--mirror GIT_DIR] [--tag TAG] OUT_DIR

Reads (never checks out) the bare TVM mirror at GIT_DIR (default /work/.mirror/apache+tvm/repo)
at TAG (default refs/tags/v0.14.0) and takes:

  * every *.rly file in the tree (TVM's std library: prelude.rly, nat.rly, ...);
  * from tests/python/relay/**.py and python/tvm/relay/**.py, every text given to TVM's parser:
    `tvm.relay.parse`, `tvm.relay.fromtext`, `tvm.relay.parse_expr` (also spelled `relay.X`,
    `tvm.parser.X`, bare `fromtext`/`parse_expr`), and to each helper function that passes one
    of its parameters on to one of those, however deep (`parse_text`, `parse_module`,
    `assert_parses_as`, ... in test_ir_parser.py), with what the helper adds (`SEMVER + code`);
  * every other string that starts with `#[version = "..."]` (texts printed and compared, texts
    kept in variables).

A text is a Python expression the script evaluates statically: string literals, names bound to
one (in the function, an enclosing one or the module; the nearest assignment before the use),
`+`, `%` and `.format()` with arguments it can resolve the same way, f-strings whose fields it
can resolve, `textwrap.dedent`, `.strip()`. A text it cannot resolve (a field from a loop
variable, a parameter, a call) is skipped and counted by reason.

Writes OUT_DIR/NNNN_<file>_L<line>.rly, each text exactly as TVM's parser got it, and
OUT_DIR/index.tsv: file name, source path:line, entry point (parse / parse_expr / version-string
/ rly), flags (`meta` when the call passed an init_meta_table, `module` when it passed an
init_module, `needs=FILE` when TVM loads FILE before it, `raises` when it is inside `with pytest.raises(...)` or an xfail test: TVM fails
on it too). Identical texts from one source file are written once. Prints the counts.
"""
import argparse
import ast
import collections
import os
import re
import subprocess
import sys
import textwrap

ENTRY = {  # dotted callee -> kind
    "tvm.relay.parse": "parse", "relay.parse": "parse", "tvm.parser.parse": "parse",
    "tvm.relay.fromtext": "parse", "relay.fromtext": "parse", "tvm.parser.fromtext": "parse",
    "fromtext": "parse", "tvm.relay.parser.parse": "parse", "tvm.relay.parser.fromtext": "parse",
    "tvm.relay.parse_expr": "parse_expr", "relay.parse_expr": "parse_expr",
    "tvm.parser.parse_expr": "parse_expr", "parse_expr": "parse_expr",
    "tvm.relay.parser.parse_expr": "parse_expr",
}
RLY_NEEDS = {"python/tvm/relay/std/nat.rly": "python/tvm/relay/std/prelude.rly"}
VERSION = re.compile(r'\s*#\[version\s*=\s*"')


class Unresolved(Exception):
    def __init__(self, reason, param=None):
        super().__init__(reason)
        self.reason = reason
        self.param = param


class Opaque:
    """A dict's value the script cannot resolve (its keys may still serve)."""

    def __format__(self, spec):
        raise Unresolved("a value it cannot resolve")

    __str__ = __repr__ = lambda self: self.__format__("")


class NeedChoice(Exception):
    """The value depends on which of several values a loop variable, `a if c else b` or
    `d[k]` takes: the texts are one for each."""

    def __init__(self, key, options):
        super().__init__("choice")
        self.key, self.options = key, options


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


class Scope:
    """A function (or the module): its parameters and the assignments made directly in it."""

    def __init__(self, node, parent):
        self.node, self.parent = node, parent
        self.params = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            self.params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
            self.positional = [p.arg for p in a.posonlyargs + a.args]
            self.defaults = dict(zip(self.positional[len(self.positional) - len(a.defaults):], a.defaults))
            for p, d in zip(a.kwonlyargs, a.kw_defaults):
                if d is not None:
                    self.defaults[p.arg] = d
        self.assigns = collections.defaultdict(list)  # name -> [(lineno, value node)]
        self.loopvars = {}  # name -> the loop's iterable (None: not a for loop)


class Module:
    def __init__(self, path, tree):
        self.path, self.tree = path, tree
        self.scope_of = {}  # node id -> Scope that directly contains it
        self.scopes = {}    # function node id -> Scope
        self.parent = {}
        self.funcs = collections.defaultdict(list)  # name -> [Scope] (function definitions)
        top = Scope(tree, None)
        self.scopes[id(tree)] = top
        self._walk(tree, top)

    def _walk(self, node, scope, b_parent=None):
        for child in ast.iter_child_nodes(node):
            self.parent[id(child)] = b_parent or node
            self.scope_of[id(child)] = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                s = Scope(child, scope)
                self.scopes[id(child)] = s
                if not isinstance(child, ast.Lambda):
                    self.funcs[child.name].append(s)
                # decorators and defaults belong to the outer scope
                for d in getattr(child, "decorator_list", []) + child.args.defaults + \
                        [d for d in child.args.kw_defaults if d is not None]:
                    self.parent[id(d)] = child
                    self.scope_of[id(d)] = scope
                    self._walk(d, scope)
                for b in (child.body if isinstance(child.body, list) else [child.body]):
                    self.parent[id(b)] = child
                    self.scope_of[id(b)] = s
                    self._walk(ast.Module(body=[b], type_ignores=[]), s, b_parent=child)
                continue
            if isinstance(child, ast.Assign):
                for t in child.targets:
                    if isinstance(t, ast.Name):
                        scope.assigns[t.id].append((child.end_lineno, child.value))
                    elif isinstance(t, (ast.Tuple, ast.List)) and isinstance(child.value, (ast.Tuple, ast.List)) \
                            and len(t.elts) == len(child.value.elts):
                        for tt, vv in zip(t.elts, child.value.elts):
                            if isinstance(tt, ast.Name):
                                scope.assigns[tt.id].append((child.end_lineno, vv))
                    else:
                        for n in ast.walk(t):
                            if isinstance(n, ast.Name):
                                scope.assigns[n.id].append((child.end_lineno, None))
            elif isinstance(child, (ast.AnnAssign, ast.AugAssign)) and isinstance(child.target, ast.Name):
                v = child.value if isinstance(child, ast.AnnAssign) else None
                scope.assigns[child.target.id].append((child.end_lineno, v))
            elif isinstance(child, (ast.For, ast.AsyncFor, ast.comprehension, ast.With, ast.ExceptHandler)):
                tgt = getattr(child, "target", None)
                if isinstance(child, ast.With):
                    tgt = [i.optional_vars for i in child.items if i.optional_vars]
                loop = isinstance(child, (ast.For, ast.comprehension))
                for t in (tgt if isinstance(tgt, list) else [tgt]):
                    for n in ast.walk(t) if t is not None else []:
                        if isinstance(n, ast.Name):
                            index = None
                            if loop and isinstance(tgt, ast.Tuple) and n in tgt.elts:
                                index = tgt.elts.index(n)
                            ok = loop and (tgt is n or index is not None)
                            scope.loopvars[n.id] = (child.iter, index) if ok else None
                            scope.assigns[n.id].append((getattr(child, "lineno", 0), None))
            self._walk(child, scope)


class Evaluator:
    """Static evaluation of string expressions. `env` binds a helper's parameters to thunks."""

    def __init__(self, mod):
        self.mod = mod
        self.visited = set()  # ids of string constants that went into some text
        self.choice = {}

    def lookup(self, name, scope, line, env):
        if name in env:
            return env[name]()
        s = scope
        first = True
        while s is not None:
            if name in s.params and (first or name not in s.assigns):
                if name in s.assigns and first:
                    before = [(l, v) for l, v in s.assigns[name] if l < line]
                    if before:
                        return self._assigned(name, before[-1], s)
                raise Unresolved("parameter", name)
            if name in s.assigns:
                cands = s.assigns[name]
                before = [(l, v) for l, v in cands if l < line] if first else cands
                if not before:
                    before = cands  # a function defined earlier than the name it uses
                if name in s.loopvars:
                    return self.loop_value(name, s, line)
                return self._assigned(name, before[-1], s)
            s = s.parent
            first = False
        raise Unresolved("unknown name", name)

    def choose(self, key, options):
        if key in self.choice:
            return self.choice[key]
        raise NeedChoice(key, options)

    def loop_value(self, name, scope, line):
        if scope.loopvars[name] is None:
            raise Unresolved("loop variable", name)
        it, index = scope.loopvars[name]
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args and \
                it.func.attr in ("keys", "values", "items"):
            d = self.value(it.func.value, scope, line, {})
            if not isinstance(d, dict):
                raise Unresolved("loop variable", name)
            opts = list(getattr(d, it.func.attr)())
        else:
            try:
                opts = self.value(it, scope, line, {})
            except Unresolved:
                raise Unresolved("loop variable", name)
            if isinstance(opts, dict):
                opts = list(opts)
        if not isinstance(opts, (list, tuple, set, frozenset)):
            raise Unresolved("loop variable", name)
        v = self.choose(("loop", id(it)), sorted(opts, key=repr) if isinstance(opts, (set, frozenset)) else list(opts))
        if index is not None:
            if not isinstance(v, (tuple, list)) or len(v) <= index:
                raise Unresolved("loop variable", name)
            return v[index]
        return v

    def _assigned(self, name, lv, scope):
        line, value = lv
        if value is None:
            raise Unresolved("assigned by a statement", name)
        return self.value(value, scope, line, {})

    def value(self, node, scope, line, env):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                self.visited.add(id(node))
            return node.value
        if isinstance(node, ast.Name):
            return self.lookup(node.id, scope, node.lineno, env)
        if isinstance(node, (ast.Tuple, ast.List)):
            vals = [self.value(e, scope, line, env) for e in node.elts]
            return tuple(vals) if isinstance(node, ast.Tuple) else vals
        if isinstance(node, ast.Set):
            return frozenset(self.value(e, scope, line, env) for e in node.elts)
        if isinstance(node, ast.IfExp):
            return self.value(self.choose(("if", id(node)), [node.body, node.orelse]), scope, line, env)
        if isinstance(node, ast.Subscript):
            base = self.value(node.value, scope, line, env)
            try:
                return base[self.value(node.slice, scope, line, env)]
            except Unresolved:
                if isinstance(base, dict):
                    return self.choose(("sub", id(node)), list(base.values()))
                raise
            except (KeyError, IndexError, TypeError):
                raise Unresolved("subscript")
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is not None:
                    try:
                        val = self.value(v, scope, line, env)
                    except Unresolved:
                        val = Opaque()
                    out[self.value(k, scope, line, env)] = val
            return out
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.value(node.operand, scope, line, env)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Mod):
                left = self.value(node.left, scope, line, env)
                if isinstance(left, str):
                    try:
                        right = self.value(node.right, scope, line, env)
                    except Unresolved as u:
                        raise Unresolved("%-formatting: " + u.reason, u.param)
                    try:
                        return left % right
                    except (TypeError, ValueError, KeyError):
                        raise Unresolved("%-formatting: bad arguments")
            left = self.value(node.left, scope, line, env)
            right = self.value(node.right, scope, line, env)
            try:
                if isinstance(node.op, ast.Add):
                    return left + right
                if isinstance(node.op, ast.Mult):
                    return left * right
                if isinstance(node.op, ast.Sub):
                    return left - right
            except TypeError:
                pass
            raise Unresolved("operator")
        if isinstance(node, ast.JoinedStr):
            out = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    self.visited.add(id(v))
                    out.append(v.value)
                    continue
                try:
                    x = self.value(v.value, scope, line, env)
                except Unresolved as u:
                    raise Unresolved("f-string: " + u.reason, u.param)
                if v.conversion == ord("r"):
                    x = repr(x)
                elif v.conversion == ord("s"):
                    x = str(x)
                spec = self.value(v.format_spec, scope, line, env) if v.format_spec else ""
                out.append(format(x, spec))
            return "".join(out)
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name in ("textwrap.dedent", "dedent") and len(node.args) == 1:
                return textwrap.dedent(self.value(node.args[0], scope, line, env))
            if name == "str" and len(node.args) == 1:
                return str(self.value(node.args[0], scope, line, env))
            if isinstance(node.func, ast.Attribute):
                recv = node.func.value
                meth = node.func.attr
                if meth == "format":
                    base = self.value(recv, scope, line, env)
                    if isinstance(base, str):
                        try:
                            args = [self.value(a, scope, line, env) for a in node.args]
                            kw = {k.arg: self.value(k.value, scope, line, env) for k in node.keywords}
                        except Unresolved as u:
                            raise Unresolved(".format: " + u.reason, u.param)
                        try:
                            return base.format(*args, **kw)
                        except (IndexError, KeyError, ValueError):
                            raise Unresolved(".format: bad arguments")
                if meth in ("strip", "lstrip", "rstrip") and not node.args:
                    base = self.value(recv, scope, line, env)
                    if isinstance(base, str):
                        return getattr(base, meth)()
                if meth == "join" and len(node.args) == 1:
                    base = self.value(recv, scope, line, env)
                    items = self.value(node.args[0], scope, line, env)
                    if isinstance(base, str) and isinstance(items, (list, tuple)):
                        return base.join(items)
            if name in ENTRY:
                raise Unresolved("parsed")  # a text some other call gives the parser
            if isinstance(node.func, ast.Attribute) and node.func.attr == "astext":
                raise Unresolved("printed by astext() when the test runs")
            raise Unresolved("call of " + (name or "an expression"))
        raise Unresolved(type(node).__name__)


def every_choice(ev, thunk, limit=64):
    """thunk()'s values, one for each combination of the choices it meets (at most `limit`)."""
    out = []
    pending = [{}]
    while pending and len(out) < limit:
        ev.choice = pending.pop(0)
        try:
            out.append(thunk())
        except NeedChoice as c:
            pending = [dict(ev.choice, **{c.key: o}) if False else {**ev.choice, c.key: o}
                       for o in c.options] + pending
        finally:
            ev.choice = {}
    return out


def source_arg(call, positional_index, keyword):
    if len(call.args) > positional_index and not any(isinstance(a, ast.Starred) for a in call.args[:positional_index + 1]):
        return call.args[positional_index]
    for k in call.keywords:
        if k.arg == keyword:
            return k.value
    return None


class Extractor:
    def __init__(self):
        self.texts = []           # (src, line, kind, flags, text)
        self.unresolved = collections.Counter()
        self.unresolved_sites = []
        self.forwarded = 0

    def run_module(self, path, code):
        try:
            tree = ast.parse(code)
        except SyntaxError as e:
            self.unresolved["python syntax error"] += 1
            return
        mod = Module(path, tree)
        ev = Evaluator(mod)
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]

        # helpers: functions that pass one of their parameters on to the parser, to a fixpoint
        helpers = {}  # function name -> (Scope, inner call, target)

        def target_of(call):
            name = dotted(call.func)
            if name in ENTRY:
                return ("entry", ENTRY[name])
            if isinstance(call.func, ast.Name) and call.func.id in helpers:
                return ("helper", call.func.id)
            return None

        changed = True
        while changed:
            changed = False
            for call in calls:
                tgt = target_of(call)
                if not tgt:
                    continue
                scope = mod.scope_of[id(call)]
                fn = scope
                while fn is not None and not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    fn = fn.parent
                if fn is None or fn.node.name in helpers:
                    continue
                arg = self.call_source(call, tgt, helpers)
                if arg is None:
                    continue
                if any(isinstance(n, ast.Name) and n.id in fn.params for n in ast.walk(arg)):
                    helpers[fn.node.name] = (fn, call, tgt)
                    changed = True

        seen_texts = set()

        def emit(line, kind, flags, text):
            if text in seen_texts:
                return
            seen_texts.add(text)
            self.texts.append((path, line, kind, flags, text))

        def raises(node):
            """Whether node is inside `with pytest.raises(...)` or a test marked xfail."""
            while node is not None:
                if isinstance(node, ast.With):
                    for item in node.items:
                        e = item.context_expr
                        if isinstance(e, ast.Call) and (dotted(e.func) or "").split(".")[-1] in (
                                "raises", "assertRaises", "expectedFailure"):
                            return True
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for d in node.decorator_list:
                        if "xfail" in ast.dump(d):
                            return True
                node = mod.parent.get(id(node))
            return False

        for call in calls:
            tgt = target_of(call)
            if not tgt:
                continue
            scope = mod.scope_of[id(call)]
            try:
                results = every_choice(ev, lambda: self.apply(ev, call, tgt, scope, {}, helpers))
            except Unresolved as u:
                fn = scope
                while fn is not None and not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    fn = fn.parent
                if u.reason == "parameter" and fn is not None and fn.node.name in helpers:
                    self.forwarded += 1  # the helper's own call: its callers give the texts
                    continue
                if u.reason == "parsed":
                    continue  # a module parsed elsewhere, passed on: that call gives the text
                self.unresolved[u.reason] += 1
                self.unresolved_sites.append("%s:%d: %s%s" % (path, call.lineno, u.reason,
                                                              " (%s)" % u.param if u.param else ""))
                for n in ast.walk(call):
                    if isinstance(n, ast.Constant):
                        ev.visited.add(id(n))
                continue
            for text, kind, flags in results:
                if not isinstance(text, str):
                    self.unresolved["not a string"] += 1
                    continue
                if raises(call):
                    flags = ",".join(filter(None, [flags, "raises"]))
                emit(call.lineno, kind, flags, text)

        # strings that start with #[version = ...] that no parse call took
        for node in ast.walk(tree):
            first = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                first = node
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                first = node.values[0]
            if first is None or id(first) in ev.visited or not VERSION.match(first.value):
                continue
            if isinstance(node, ast.Constant) and isinstance(mod.parent.get(id(node)), ast.JoinedStr):
                continue
            # the largest string expression around it
            top = node
            while True:
                p = mod.parent.get(id(top))
                if isinstance(p, ast.BinOp) and isinstance(p.op, (ast.Add, ast.Mod)):
                    top = p
                elif isinstance(p, ast.Attribute) and p.attr in ("format", "strip") and \
                        isinstance(mod.parent.get(id(p)), ast.Call):
                    top = mod.parent[id(p)]
                elif isinstance(p, ast.Call) and dotted(p.func) in ("textwrap.dedent", "dedent"):
                    top = p
                else:
                    break
            scope = mod.scope_of[id(top)]
            p = mod.parent.get(id(top))
            if isinstance(p, ast.Assign) and any(
                    isinstance(t, ast.Name) and any(v is None for _, v in scope.assigns[t.id]) for t in p.targets):
                continue  # the start of a text a statement builds on (`mod += ...`): counted at its call
            try:
                texts = every_choice(ev, lambda: ev.value(top, scope, top.lineno, {}))
            except Unresolved as u:
                self.unresolved[u.reason] += 1
                self.unresolved_sites.append("%s:%d: %s%s" % (path, node.lineno, u.reason,
                                                              " (%s)" % u.param if u.param else ""))
                ev.visited.add(id(first))
                continue
            for text in texts:
                if isinstance(text, str):
                    emit(node.lineno, "version-string", "", text)

    def call_source(self, call, tgt, helpers):
        if tgt[0] == "entry":
            return source_arg(call, 0, "source")
        hscope = helpers[tgt[1]][0]
        # the helper's parameter that reaches the parser
        inner = helpers[tgt[1]][1]
        arg = self.call_source(inner, helpers[tgt[1]][2], helpers)
        used = {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)} if arg is not None else set()
        for i, p in enumerate(hscope.positional):
            if p in used and len(call.args) > i:
                return call.args[i]
        for k in call.keywords:
            if k.arg in used:
                return k.value
        return None

    def apply(self, ev, call, tgt, scope, env, helpers):
        """The text `call` hands the parser, its entry kind and flags."""
        if tgt[0] == "entry":
            arg = source_arg(call, 0, "source")
            if arg is None:
                raise Unresolved("no source argument")
            flags = []
            if source_arg(call, 3, "init_meta_table") is not None:
                flags.append("meta")
            if source_arg(call, 2, "init_module") is not None:
                flags.append("module")
            return ev.value(arg, scope, call.lineno, env), tgt[1], ",".join(flags)
        hscope, inner, itgt = helpers[tgt[1]]
        # bind the helper's parameters lazily to the call's arguments
        benv = {}

        def thunk(node, s=scope, e=env, line=call.lineno):
            return lambda: ev.value(node, s, line, e)

        for i, p in enumerate(hscope.positional):
            if i < len(call.args) and not isinstance(call.args[i], ast.Starred):
                benv[p] = thunk(call.args[i])
        for k in call.keywords:
            if k.arg:
                benv[k.arg] = thunk(k.value)
        for p, d in hscope.defaults.items():
            if p not in benv:
                benv[p] = thunk(d, hscope.parent, {}, d.lineno)
        iscope = self_scope = None
        iscope = ev.mod.scope_of[id(inner)]
        return self.apply(ev, inner, itgt, iscope, benv, helpers)


DOC_START = re.compile(r"^(\s*)(#\[version|def @|fn ?\(%|free_var %|type [A-Z]\w*\s*[\[{])")


def doc_blocks(text):
    """(line offset, block) for each Relay-looking block in a docstring, comment or document:
    from a line that starts a definition, function, free_var or type, to the first blank line
    (or a line indented less than the start) where the brackets balance."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = DOC_START.match(lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group(1))
        depth, j, block = 0, i, []
        while j < len(lines):
            ln = lines[j]
            stripped = ln.strip()
            lead = len(ln) - len(ln.lstrip())
            if block and depth <= 0 and (not stripped or lead < indent or stripped.startswith((">>>", "..."))):
                break
            block.append(ln)
            code = re.sub(r"/\*.*?\*/|//.*$", "", ln)
            depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
            j += 1
        out.append((i, textwrap.dedent("\n".join(block)).strip() + "\n"))
        i = j
    return out


def comment_text(code):
    """The module's comments, with each comment's `#` and one space removed (other lines blank)."""
    out = []
    for ln in code.split("\n"):
        m = re.match(r"\s*# ?(.*)$", ln)
        out.append(m.group(1) if m else "")
    return "\n".join(out)


def git(mirror, *args):
    return subprocess.run(["git", "-C", mirror] + list(args), check=True, capture_output=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirror", default="/work/.mirror/apache+tvm/repo")
    ap.add_argument("--tag", default="refs/tags/v0.14.0")
    ap.add_argument("--verbose", action="store_true", help="list the unresolved sites")
    ap.add_argument("--all", action="store_true",
                    help="every tests/**.py, python/**.py, apps/**.py, gallery/**.py, not only Relay's folders")
    ap.add_argument("--docs", action="store_true",
                    help="instead: the Relay-looking blocks in docstrings, comments and docs/*.rst (printed text "
                         "shown to readers, often abridged)")
    ap.add_argument("out")
    a = ap.parse_args()
    files = git(a.mirror, "ls-tree", "-r", "--name-only", a.tag).decode().split("\n")
    roots = ("tests/", "python/", "apps/", "gallery/", "docs/") if a.all else ("tests/python/relay/", "python/tvm/relay/")
    py = [f for f in files if f.endswith(".py") and f.startswith(roots)]
    rly = [f for f in files if f.endswith(".rly")]
    ex = Extractor()
    if a.docs:
        for f in py + [f for f in files if f.startswith("docs/") and f.endswith((".rst", ".md", ".txt"))]:
            code = git(a.mirror, "show", "%s:%s" % (a.tag, f)).decode("utf-8", "replace")
            chunks = []
            if f.endswith(".py"):
                try:
                    tree = ast.parse(code)
                except SyntaxError:
                    continue
                for n in ast.walk(tree):
                    if isinstance(n, ast.Constant) and isinstance(n.value, str) and "\n" in n.value:
                        chunks.append((n.lineno, n.value))
                chunks.append((1, comment_text(code)))
            else:
                chunks.append((1, code))
            seen = set()
            for line, chunk in chunks:
                for off, block in doc_blocks(chunk):
                    if block not in seen and not VERSION.match(chunk) and len(block) > 12:
                        seen.add(block)
                        ex.texts.append((f, line + off, "doc", "", block))
        rly = []
        py = []
    for f in py:
        ex.run_module(f, git(a.mirror, "show", "%s:%s" % (a.tag, f)).decode("utf-8", "replace"))
    for f in rly:
        ex.texts.append((f, 1, "rly", "", git(a.mirror, "show", "%s:%s" % (a.tag, f)).decode("utf-8")))
    names = {}
    for n, (src, line, kind, flags, text) in enumerate(ex.texts):
        names[src] = "%04d_%s_L%d.rly" % (n, os.path.splitext(os.path.basename(src))[0], line)
    # TVM's Prelude class (python/tvm/relay/prelude.py) loads nat.rly after prelude.rly: nat uses List
    for n, t in enumerate(ex.texts):
        dep = RLY_NEEDS.get(t[0])
        if dep and dep in names:
            ex.texts[n] = t[:3] + (",".join(filter(None, [t[3], "needs=" + names[dep]])),) + t[4:]

    os.makedirs(a.out, exist_ok=True)
    for old in os.listdir(a.out):
        if old.endswith(".rly") or old == "index.tsv":
            os.remove(os.path.join(a.out, old))
    with open(os.path.join(a.out, "index.tsv"), "w") as idx:
        for n, (src, line, kind, flags, text) in enumerate(ex.texts):
            stem = os.path.splitext(os.path.basename(src))[0]
            name = "%04d_%s_L%d.rly" % (n, stem, line)
            with open(os.path.join(a.out, name), "w") as f:
                f.write(text)
            idx.write("%s\t%s:%d\t%s\t%s\n" % (name, src, line, kind, flags))
    kinds = collections.Counter(t[2] for t in ex.texts)
    print("extracted %d texts (%s) from %d Python files and %d .rly files into %s" % (
        len(ex.texts), ", ".join("%s %d" % kv for kv in sorted(kinds.items())), len(py), len(rly), a.out))
    print("helpers' own parser calls (texts come from their callers): %d" % ex.forwarded)
    print("skipped, unresolved: %d" % sum(ex.unresolved.values()))
    for r, c in ex.unresolved.most_common():
        print("  %4d  %s" % (c, r))
    if a.verbose:
        for s in ex.unresolved_sites:
            print("    " + s)


if __name__ == "__main__":
    main()
