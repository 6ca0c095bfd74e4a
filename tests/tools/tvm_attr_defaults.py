#!/usr/bin/env python3
"""Writes tests/ops/tvm_attr_defaults.txt: every attribute of every operator relay has (ir/ops.def),
with TVM's C++ default, read from a TVM checkout.

usage: tvm_attr_defaults.py TVM_GIT_DIR [REF] > tests/ops/tvm_attr_defaults.txt
       (REF defaults to refs/tags/v0.14.0; the files are read with `git show REF:PATH`)

What TVM's text parser gives an attribute the text omits (src/relay/parser/parser.cc, ParseCallArgs):
it builds the operator's attribute struct (`attrs_type_key`, set by `.set_attrs_type<T>()` where the
operator is registered, src/relay/**/*.cc) with ReflectionVTable::CreateObject from the attributes
written, and AttrsNode::InitByPackedArgs (include/tvm/ir/attrs.h) gives every field not written its
`.set_default(...)`; a field without one is required (AttrInitEntry's destructor throws "Cannot find
required field"). So the default of an attribute is its struct's set_default, nothing else.

A few operators register no struct (cumsum, unique, the vision operators, ...): their calls still
carry the one their make function builds, which TVM's printer prints against its defaults, so the
struct is taken from the operator's type relation (`attrs.as<T>()`) or its make function
(`make_object<T>()`), and marked `*`.

Each line, for every operator of ir/ops.def and every field of its struct: operator, attribute,
default (spelt as relay's text writes it: True, -1, 1e-05, [1, 1], "NCHW", None for a null array,
expression or optional, "" for a void DataType; `required` when the field has no default), the
struct and the header it is declared in. An operator without attributes has one line, `-` and
`no-attrs`; an attribute relay takes that the struct lacks has `not-in-struct`. This program is not
needed to run the test (tests/ops/attr_defaults.py): its output is committed."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def git(tvm, *args):
    return subprocess.run(["git", "-C", tvm] + list(args), check=True, capture_output=True,
                          text=True).stdout


def strip_comments(src):
    """C++ source without comments, strings kept (so that offsets of code stay meaningful)."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        elif c == "'":
            j = i + 1
            while j < n and src[j] != "'":
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def balanced(src, i, open_="(", close=")"):
    """The index just past the bracket that closes the one at src[i]; strings skipped."""
    depth = 0
    n = len(src)
    while i < n:
        c = src[i]
        if c == '"':
            i += 1
            while i < n and src[i] != '"':
                i += 2 if src[i] == "\\" else 1
        elif c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced")


def statement_end(src, i):
    """The index of the `;` that ends the statement starting at i (brackets and strings skipped)."""
    depth, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == '"':
            i += 1
            while i < n and src[i] != '"':
                i += 2 if src[i] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";" and depth == 0:
            return i
        i += 1
    return n


# ------------------------------------------------------------------------------------------ structs

def parse_structs(tvm, ref):
    """{type_key: (struct name, header, [(field, c_type, default or None)])}, and by struct name."""
    headers = [p for p in git(tvm, "ls-tree", "-r", "--name-only", ref, "include/tvm/relay").split()
               if "attrs" in p and p.endswith(".h")]
    by_key, by_name = {}, {}
    for h in headers:
        src = strip_comments(git(tvm, "show", f"{ref}:{h}"))
        for m in re.finditer(r"struct\s+(\w+)\s*:\s*public\s+(?:tvm::)?AttrsNode<\w+>\s*{", src):
            name = m.group(1)
            body_end = balanced(src, m.end() - 1, "{", "}")
            body = src[m.end():body_end - 1]
            d = re.search(r"TVM_DECLARE_ATTRS\(\s*(\w+)\s*,\s*\"([^\"]+)\"\s*\)\s*{", body)
            if not d:
                continue
            decls = body[:d.start()]
            types = {}
            for fm in re.finditer(r"^\s*((?:[\w:]+)(?:\s*<[^;]*>)?)\s+(\w+)\s*(?:=[^;]*)?;", decls, re.M):
                types[fm.group(2)] = re.sub(r"\s+", "", fm.group(1))
            block_end = balanced(body, d.end() - 1, "{", "}")
            block = body[d.end():block_end - 1]
            fields = []
            for fm in re.finditer(r"TVM_ATTR_FIELD\(\s*(\w+)\s*\)", block):
                stmt = block[fm.end():statement_end(block, fm.end())]
                dflt = None
                k = stmt.find(".set_default")
                if k >= 0:
                    a = stmt.index("(", k)
                    dflt = stmt[a + 1:balanced(stmt, a) - 1].strip()
                fields.append((fm.group(1), types.get(fm.group(1), "?"), dflt))
            by_key[d.group(2)] = (name, h, fields)
            by_name[name] = by_key[d.group(2)]
    return by_key, by_name


# ------------------------------------------------------------------------------------ registrations

def parse_registrations(tvm, ref):
    """{operator name: struct name or type key} from RELAY_REGISTER_OP(...)...set_attrs_type<T>()."""
    files = [p for p in git(tvm, "ls-tree", "-r", "--name-only", ref, "src/relay").split()
             if p.endswith((".cc", ".h"))]
    srcs = {}
    for f in files:
        text = git(tvm, "show", f"{ref}:{f}")
        srcs[f] = strip_comments(text)
    attr_re = re.compile(r"\.set_attrs_type<\s*([\w:]+)\s*>\s*\(\s*\)|\.set_attrs_type_key\(\s*\"([^\"]+)\"\s*\)")
    # Macros that register an operator: their parameter is its name (maybe after a prefix string).
    macros = {}
    for f, src in srcs.items():
        for m in re.finditer(r"#define\s+(\w+)\(\s*(\w+)\s*\)((?:[^\n]*\\\n)*[^\n]*)", src):
            body = m.group(3).replace("\\\n", "\n")
            r = re.search(r"RELAY_REGISTER_OP\(\s*(\"[^\"]*\"\s*)?" + m.group(2) + r"\s*\)", body)
            if not r:
                continue
            prefix = r.group(1).strip().strip('"') if r.group(1) else ""
            a = attr_re.search(body, r.end())
            macros[m.group(1)] = (prefix, (a.group(1) or a.group(2)) if a else None)
    regs = {}
    for f, src in sorted(srcs.items()):
        pat = r"\b(RELAY_REGISTER_OP|" + "|".join(map(re.escape, macros)) + r")\(\s*\"([^\"]+)\"\s*\)"
        for m in re.finditer(pat, src):
            if src[max(0, m.start() - 8):m.start()].strip().endswith("define"):
                continue
            kind, name = m.group(1), m.group(2)
            stmt = src[m.end():statement_end(src, m.end())]
            a = attr_re.search(stmt)
            attrs = (a.group(1) or a.group(2)) if a else None
            if kind in macros:
                prefix, mattrs = macros[kind]
                name = prefix + name
                attrs = attrs or mattrs
            if not attrs and not (name in regs and regs[name][0] and not regs[name][0].endswith("*")):
                attrs = relation_attrs(srcs, stmt) or make_attrs(srcs, name)
            # Other files add to a registration (set_attr<...>): set_attrs_type wins, then a struct
            # found through the relation or the make function, then none.
            old = regs.get(name, (None, None))[0]
            rank = lambda a: 0 if not a else 1 if a.endswith("*") else 2
            if name not in regs or rank(attrs) > rank(old):
                regs[name] = (attrs.split("::")[-1] if attrs else None, f)
    return regs


def function_attrs(srcs, fn):
    """The first `make_object<T>()` or `as<T>()` of an attributes struct in function fn's body."""
    for src in srcs.values():
        for m in re.finditer(r"\b(?:bool|Expr|Call)\s+" + fn + r"\s*\([^)]*\)\s*{", src):
            body = src[m.end() - 1:balanced(src, m.end() - 1, "{", "}")]
            a = re.search(r"\b(?:as|make_object)<\s*([\w:]*Attrs)\s*>\s*\(", body)
            if a:
                return a.group(1) + "*"
    return None


def make_attrs(srcs, op):
    """The struct the operator's make function (TVM_REGISTER_GLOBAL("relay...._make.NAME")) builds."""
    parts = op.split(".")
    for src in srcs.values():
        for m in re.finditer(r"TVM_REGISTER_GLOBAL\(\s*\"([^\"]*\._make\." + re.escape(parts[-1]) + r")\"\s*\)", src):
            if not all(p in m.group(1).split(".") for p in parts[:-1]):
                continue
            stmt = src[m.end():statement_end(src, m.end())]
            a = re.search(r"\bmake_object<\s*([\w:]*Attrs)\s*>\s*\(", stmt)
            if a:
                return a.group(1) + "*"
            f = re.search(r"set_body_typed\(\s*([\w:]+)\s*\)", stmt)
            if f:
                found = function_attrs(srcs, f.group(1).split("::")[-1])
                if found:
                    return found
    return None


def relation_attrs(srcs, stmt):
    """The struct an operator registered without set_attrs_type reads, from its type relation's
    `attrs.as<T>()` (TVM's printer still omits the fields equal to T's defaults, so a printed call
    without them means those defaults)."""
    r = re.search(r"\.add_type_rel\(\s*(?:\"[^\"]*\"\s*)+,\s*([\w:]+)\s*\)", stmt)
    if not r:
        return None
    fn = r.group(1).split("::")[-1]
    for src in srcs.values():
        for m in re.finditer(r"\bbool\s+" + fn + r"\s*\([^)]*\)\s*{", src):
            body = src[m.end() - 1:balanced(src, m.end() - 1, "{", "}")]
            a = re.search(r"\bas<\s*([\w:]*Attrs)\s*>\s*\(", body)
            if a:
                return a.group(1) + "*"
    return None


# ------------------------------------------------------------------------------------------ defaults

def spell(dflt, ctype):
    """A C++ default expression as relay's text writes the value."""
    e = re.sub(r"\s+", " ", dflt).strip()
    e = re.sub(r",\s*}", "}", e)
    if re.fullmatch(r"NullValue<.*>\(\)|nullptr|Optional<.*>\(nullptr\)|NullOpt|\w+\(\)", e):
        if re.fullmatch(r"NullValue<DataType>\(\)|DataType\(\)|DataType::Void\(\)", e) or ctype == "DataType":
            return '""'
        if re.fullmatch(r"Array<[\w:]+>\(\)", e):
            return "[]"
        return "None"
    if e in ("true", "false"):
        return "True" if e == "true" else "False"
    m = re.fullmatch(r"DataType::(Int|UInt|Float|Bool)\((\d*)\)", e)
    if m:
        base = {"Int": "int", "UInt": "uint", "Float": "float", "Bool": "bool"}[m.group(1)]
        return '"' + base + (m.group(2) if base != "bool" else "") + '"'
    m = re.fullmatch(r"(?:tvm::)?(?:String|std::string)?\(?(\"[^\"]*\")\)?", e)
    if m:
        return m.group(1)
    m = re.fullmatch(r"(?:Array<[\w:]+>|Array<IndexExpr>)?\(?\{(.*)\}\)?", e)
    if m:
        items = [x.strip() for x in m.group(1).split(",") if x.strip()]
        return "[" + ", ".join(spell(x, "") for x in items) + "]"
    m = re.fullmatch(r"(?:Integer|IntImm|Bool|FloatImm|IndexExpr|static_cast<\w+>)\((.*)\)", e)
    if m:
        return spell(m.group(1).split(",")[-1], ctype)
    m = re.fullmatch(r"(-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)[fFlL]?", e)
    if m and ctype in ("bool", "Bool"):
        return "False" if float(m.group(1)) == 0 else "True"
    if m:
        v = m.group(1)
        if ctype in ("double", "float") or "." in v or "e" in v.lower():
            return repr(float(v))
        return str(int(v))
    return "?" + e


def ops_def():
    """[(operator, [attribute names], required set)] from ir/ops.def, in its order."""
    rows = []
    for line in open(os.path.join(ROOT, "ir", "ops.def")):
        m = re.match(r'IR_OP\(\w+, "([^"]+)", \d+, \d+, "([^"]*)"', line)
        if m:
            words = m.group(2).split()
            rows.append((m.group(1), [w.rstrip("!") for w in words]))
    return rows


def main():
    tvm = sys.argv[1]
    ref = sys.argv[2] if len(sys.argv) > 2 else "refs/tags/v0.14.0"
    by_key, by_name = parse_structs(tvm, ref)
    regs = parse_registrations(tvm, ref)
    # nn.contrib_dense_pack is registered with set_attrs_type<DenseAttrs>, but its relation
    # (DensePackRel, src/relay/op/nn/nn.cc) and its make function read and build DensePackAttrs:
    # the calls TVM prints carry those.
    regs["nn.contrib_dense_pack"] = ("DensePackAttrs*", regs["nn.contrib_dense_pack"][1])
    print(f"# TVM's C++ defaults of the attributes of relay's operators: written by")
    print(f"# tests/tools/tvm_attr_defaults.py from TVM {ref.split('/')[-1]} (include/tvm/relay/**/attrs*.h,")
    print(f"# the operators' .set_attrs_type<T>() in src/relay/). Columns: operator, attribute, default")
    print(f"# (`required`: no set_default), struct (`*`: the one the relation or make function uses),")
    print(f"# header. Read by tests/ops/attr_defaults.py.")
    for op, accepted in ops_def():
        reg = regs.get(op)
        if reg is None:
            print(f"{op}\t-\tunregistered\t-\t-")
            continue
        attrs, where = reg
        if attrs is None:
            print(f"{op}\t-\tno-attrs\t-\t{where}")
            continue
        via_relation = attrs.endswith("*")
        attrs = attrs.rstrip("*")
        s = by_name.get(attrs) or by_key.get(attrs)
        if s is None:
            print(f"{op}\t-\tunknown-struct\t{attrs}\t{where}")
            continue
        name, header, fields = s
        if via_relation:  # the struct its relation reads: marked, since the parser cannot build it
            name += "*"
        if not fields:
            print(f"{op}\t-\tno-fields\t{name}\t{header}")
        for field, ctype, dflt in fields:
            d = "required" if dflt is None else spell(dflt, ctype)
            print(f"{op}\t{field}\t{d}\t{name}\t{header}")
        for a in accepted:
            if a not in [f[0] for f in fields]:
                print(f"{op}\t{a}\tnot-in-struct\t{name}\t{header}")


if __name__ == "__main__":
    main()
