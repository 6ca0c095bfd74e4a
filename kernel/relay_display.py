"""Rich output for the Relay kernel: a value's structure (docs/serve.md, `value`) as HTML and SVG.

- a tensor of rank 1 or 2: an HTML table captioned with its type, summarised past MAX_SIDE rows
  or columns (the first and last HALF, `…` between);
- a 2-D float tensor: also an SVG heatmap (hand-written), captioned with its type and range, as
  an output of its own;
- an ADT value (a constructor tree): an SVG drawn by Graphviz's `dot` when it is on PATH, nested
  HTML lists otherwise. A list is drawn as the Cons cells that build it, as relay prints it;
  past MAX_NODES nodes the rest is `…`;
- DOT text (`:graph @f`): an SVG through `dot` when it is on PATH.

Every function returns a string, or None when it has nothing to add to the text.
"""
import html
import math
import shutil
import struct
import subprocess

MAX_SIDE = 20      # rows or columns shown in full; past it the first and last HALF
HALF = 10
MAX_CELLS = 100    # heatmap: rows and columns drawn at most
MAX_NODES = 200    # ADT tree: nodes drawn at most
FLOATS = ("float16", "float32", "float64", "bfloat16")
SUFFIX = {"int32": "", "float32": "f", "float64": "f64", "float16": "f16", "int64": "i64",
          "int16": "i16", "int8": "i8", "uint8": "u8", "uint16": "u16", "uint32": "u32",
          "uint64": "u64"}


def _shortest(f, fmt):
    """The shortest decimal that reads back as f in its dtype (struct format `<f`, `<e`; None for
    float64), spelled as Python spells floats, without a trailing `.0`: `10`, `0.1`, `1e-05`."""
    text = repr(f)
    if fmt is not None:
        want = struct.unpack(fmt, struct.pack(fmt, f))[0]
        for p in range(1, 18):
            short = "%.*g" % (p, f)
            if struct.unpack(fmt, struct.pack(fmt, float(short)))[0] == want:
                text = repr(float(short))
                break
    return text[:-2] if text.endswith(".0") else text


def element_text(x, dtype=None):
    """An element as the table shows it, whatever JSON spelling relay chose: bools as Relay's
    True and False, integers with all their digits, floats as the shortest decimal that reads
    back as the same value of their dtype (`2`, `2.5`, `0.1`, `nan`), without a suffix."""
    if x is True:
        return "True"
    if x is False:
        return "False"
    if dtype in FLOATS or (dtype is None and isinstance(x, (str, float))):
        try:
            f = float(x)
        except (TypeError, ValueError):
            return str(x)
        if not math.isfinite(f):
            return "nan" if f != f else ("inf" if f > 0 else "-inf")
        return _shortest(f, {"float32": "<f", "float16": "<e"}.get(dtype))
    return str(x)


def scalar_text(x, dtype):
    """A scalar as the REPL spells it: `2f`, `2.5f`, `3`, `7i64`, `True`."""
    text = element_text(x, dtype)
    if dtype == "bool" or text in ("nan", "inf", "-inf"):
        return text
    return text + SUFFIX.get(dtype, "")


def _indices(n, available=None):
    """The indices shown along a side of n: all, or the first and last HALF with None between.
    `available` (a count of leading indices present) makes it the first MAX_SIDE then None."""
    if n <= MAX_SIDE and (available is None or available >= n):
        return list(range(n))
    if available is not None and available < n:
        shown = list(range(min(available, MAX_SIDE)))
        return shown + [None]
    return list(range(HALF)) + [None] + list(range(n - HALF, n))


def _is_tensor(value):
    return isinstance(value, dict) and value.get("kind") == "tensor"


def tensor_html(value, type_text):
    """A table of a rank-1 or rank-2 tensor, captioned with its type."""
    if not _is_tensor(value) or len(value.get("shape", [])) not in (1, 2):
        return None
    shape = [int(d) for d in value["shape"]]
    data = value.get("data", [])
    dtype = value.get("dtype")
    rows, cols = (1, shape[0]) if len(shape) == 1 else shape
    if rows * cols == 0:
        return None
    full_rows = len(data) // cols if cols else 0
    row_idx = _indices(rows, full_rows if len(data) < rows * cols else None)
    if len(shape) == 1 and len(data) < cols:
        col_idx = _indices(cols, len(data))
    else:
        col_idx = _indices(cols)
    out = ['<table class="relay-tensor">',
           "<caption>%s</caption>" % html.escape(type_text)]
    if len(shape) == 2:
        out.append("<tr><th></th>%s</tr>" % "".join(
            "<th>…</th>" if j is None else "<th>%d</th>" % j for j in col_idx))
    for i in row_idx:
        cells = []
        if len(shape) == 2:
            cells.append("<th>…</th>" if i is None else "<th>%d</th>" % i)
        for j in col_idx:
            if i is None or j is None:
                cells.append("<td>…</td>")
            else:
                cells.append("<td>%s</td>" % html.escape(element_text(data[i * cols + j], dtype)))
        out.append("<tr>%s</tr>" % "".join(cells))
    out.append("</table>")
    return "\n".join(out) + "\n"


def _number(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


# Viridis, sampled at 9 points: dark blue (low) to yellow (high); interpolated between them.
_PALETTE = [(68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141),
            (39, 173, 129), (92, 200, 99), (170, 220, 50), (253, 231, 37)]


def _colour(t):
    t = min(max(t, 0.0), 1.0) * (len(_PALETTE) - 1)
    k = min(int(t), len(_PALETTE) - 2)
    f = t - k
    a, b = _PALETTE[k], _PALETTE[k + 1]
    return "#%02x%02x%02x" % tuple(int(round(a[c] + (b[c] - a[c]) * f)) for c in range(3))


def _fmt(x):
    return "%.6g" % x if math.isfinite(x) else str(x)


def heatmap_svg(value, type_text):
    """A 2-D float tensor as coloured cells (at most MAX_CELLS a side), with its type and range."""
    if not _is_tensor(value) or len(value.get("shape", [])) != 2 or value.get("dtype") not in FLOATS:
        return None
    rows, cols = (int(d) for d in value["shape"])
    data = value.get("data", [])
    shown_rows = min(rows, MAX_CELLS, len(data) // cols if cols else 0)
    shown_cols = min(cols, MAX_CELLS)
    if shown_rows == 0 or shown_cols == 0:
        return None
    grid = [[_number(data[i * cols + j]) for j in range(shown_cols)] for i in range(shown_rows)]
    finite = [x for row in grid for x in row if math.isfinite(x)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 0.0)
    cell = max(4, min(24, 480 // max(shown_rows, shown_cols)))
    width, height = shown_cols * cell, shown_rows * cell
    caption = type_text
    if shown_rows < rows or shown_cols < cols:
        caption += " (the first %d × %d)" % (shown_rows, shown_cols)
    legend = "min %s, max %s" % (_fmt(lo), _fmt(hi)) if finite else "no finite values"
    svg_w, svg_h = max(width, 240) + 2, height + 44
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (svg_w, svg_h, svg_w, svg_h),
           "<title>%s</title>" % html.escape(type_text)]
    for i, row in enumerate(grid):
        for j, x in enumerate(row):
            if math.isfinite(x):
                fill = _colour((x - lo) / (hi - lo) if hi > lo else 0.5)
            else:
                fill = "#999999"
            out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>[%d, %d] = %s'
                       '</title></rect>' % (1 + j * cell, 1 + i * cell, cell, cell, fill, i, j,
                                            html.escape(element_text(data[i * cols + j], value.get("dtype")))))
    out.append('<text x="1" y="%d" font-family="monospace" font-size="12">%s</text>'
               % (height + 18, html.escape(caption)))
    out.append('<text x="1" y="%d" font-family="monospace" font-size="12">%s</text>'
               % (height + 36, html.escape(legend)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- ADT values as trees

def _leaf_label(value):
    """The label of a value drawn as one node, or None for a constructor or tuple (a subtree)."""
    kind = value.get("kind") if isinstance(value, dict) else None
    if kind == "tensor":
        shape = value.get("shape", [])
        if not shape and value.get("data"):
            return scalar_text(value["data"][0], value.get("dtype"))
        return "Tensor[(%s), %s]" % (", ".join(str(d) for d in shape), value.get("dtype"))
    if kind == "closure":
        return "<fn>"
    if kind == "ref":
        return None
    if kind in ("constructor", "tuple"):
        return None
    return "…"


def _children(value):
    kind = value.get("kind")
    if kind in ("constructor", "tuple"):
        return value.get("fields", [])
    if kind == "ref":
        return [value.get("value")]
    return []


def _node_label(value):
    kind = value.get("kind")
    if kind == "constructor":
        return value.get("name", "?")
    if kind == "tuple":
        return "( )"
    if kind == "ref":
        return "ref"
    return _leaf_label(value)


def is_adt(value):
    return isinstance(value, dict) and value.get("kind") == "constructor"


def _dot_quote(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def adt_dot(value):
    """DOT for a constructor tree: a box per constructor, an ellipse per leaf value."""
    lines = ["digraph value {", '  node [fontname="Helvetica", fontsize=11];',
             '  edge [arrowsize=0.6];']
    count = [0]

    def walk(v):
        n = count[0]
        count[0] += 1
        name = "n%d" % n
        if n >= MAX_NODES:
            lines.append('  %s [label="…", shape=plaintext];' % name)
            return name
        leaf = _leaf_label(v)
        if leaf is not None:
            lines.append("  %s [label=%s, shape=ellipse];" % (name, _dot_quote(leaf)))
            return name
        shape = "box" if v.get("kind") == "constructor" else "circle"
        lines.append("  %s [label=%s, shape=%s];" % (name, _dot_quote(_node_label(v)), shape))
        for child in _children(v):
            if count[0] > MAX_NODES:
                break
            lines.append("  %s -> %s;" % (name, walk(child)))
        return name
    walk(value)
    lines.append("}")
    return "\n".join(lines) + "\n"


def adt_html(value, type_text):
    """A constructor tree as nested HTML lists."""
    count = [0]

    def walk(v):
        count[0] += 1
        if count[0] > MAX_NODES:
            return "<li>…</li>"
        leaf = _leaf_label(v)
        if leaf is not None:
            return "<li><code>%s</code></li>" % html.escape(leaf)
        kids = _children(v)
        label = "<code>%s</code>" % html.escape(_node_label(v))
        if not kids:
            return "<li>%s</li>" % label
        return "<li>%s<ul>%s</ul></li>" % (label, "".join(walk(k) for k in kids))
    return ('<div class="relay-adt"><div>%s</div><ul>%s</ul></div>\n'
            % (html.escape(type_text), walk(value)))


def dot_available():
    return shutil.which("dot") is not None


def dot_svg(dot_text):
    """DOT drawn by Graphviz's `dot -Tsvg`, or None when `dot` is missing or fails."""
    if not dot_available():
        return None
    try:
        p = subprocess.run(["dot", "-Tsvg"], input=dot_text.encode("utf-8"), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode != 0:
        return None
    return p.stdout.decode("utf-8", "replace")


def value_bundles(text_plain, value, type_text):
    """The outputs of a value item, each (a mime bundle with text/plain, metadata): the value (with
    its HTML table or tree), then for a 2-D float tensor its heatmap as an output of its own (a
    front end shows one type of a bundle, so a table and a picture in one bundle would hide one),
    its metadata {"relay": {"view": "heatmap"}}."""
    bundle = {"text/plain": text_plain}
    out = [(bundle, {})]
    table = tensor_html(value, type_text)
    if table:
        bundle["text/html"] = table
        heat = heatmap_svg(value, type_text)
        if heat:
            out.append(({"text/plain": "heatmap of %s" % type_text, "image/svg+xml": heat},
                        {"relay": {"view": "heatmap"}}))
    elif is_adt(value):
        svg = dot_svg(adt_dot(value))
        if svg:
            bundle["image/svg+xml"] = svg
        else:
            bundle["text/html"] = adt_html(value, type_text)
    return out


def graph_bundle(dot_text):
    """The mime bundle of `:graph @f`'s DOT: the text, and the SVG when `dot` is there."""
    bundle = {"text/plain": dot_text}
    svg = dot_svg(dot_text)
    if svg:
        bundle["image/svg+xml"] = svg
    return bundle
