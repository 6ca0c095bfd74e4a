#!/usr/bin/env python3
"""docs/tour.ipynb from docs/tour.md: the tour's first sections as a notebook.

Usage: tour_notebook.py RELAY_BINARY [OUT.ipynb]   (OUT defaults to docs/tour.ipynb)

Each `relay-repl` box of the sections in SECTIONS becomes a code cell (its `> ` lines), the prose
between boxes markdown cells. The notebook is run with the Relay kernel (installed into a
temporary Jupyter path) and written with its outputs, after checking that each cell shows what
its box in docs/tour.md shows (tests/kernel/notebook_test.py checks both again). Run it again
when those sections of the tour change.

`transcript()` and `boxes()` are shared with notebook_test.py.
"""
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOUR = os.path.join(ROOT, "docs", "tour.md")
SECTIONS = ["1", "2", "3", "4", "11"]

INTRO = """# A tour of Relay, in a notebook

The first sections of [the tour](tour.md) (expressions, numbers, names, inference) and its
section on tensors, as a notebook for the Relay kernel (`kernel/`; the README's section
"Notebooks" says how to install it). Each code cell is a box of the tour: a cell takes
definitions, expressions, `let` bindings and `:` commands line by line, as the REPL does, and
shows what the REPL shows. A tensor is also shown as a table, and a float matrix as a heatmap.

This notebook is made from `docs/tour.md` by `tests/kernel/tour_notebook.py`, and
`tests/kernel/notebook_test.py` runs it and compares every output."""


def sections(text):
    """{number: the section's text (its heading included)}."""
    parts = re.split(r"(?m)^(?=## )", text)
    out = {}
    for part in parts:
        m = re.match(r"## (\d+)\. ", part)
        if m:
            out[m.group(1)] = part
    return out


def split_section(text):
    """[("markdown", text) | ("code", (input, expected))] in order."""
    cells, prose, lines = [], [], text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```relay-repl":
            j = lines.index("```", i + 1)
            box = lines[i + 1:j]
            md = "\n".join(prose).strip("\n")
            if md:
                cells.append(("markdown", md))
            prose = []
            inputs = [l[2:] if l.startswith("> ") else l[1:] for l in box if l.startswith(">")]
            expected = [l for l in box if not l.startswith(">")]
            cells.append(("code", ("\n".join(inputs), "\n".join(expected) + "\n" if expected else "")))
            i = j + 1
        else:
            prose.append(lines[i])
            i += 1
    md = "\n".join(prose).strip("\n")
    if md:
        cells.append(("markdown", md))
    return cells


def boxes(tour_text=None):
    """The code cells' (input, expected transcript), in notebook order."""
    if tour_text is None:
        with open(TOUR, encoding="utf-8") as f:
            tour_text = f.read()
    secs = sections(tour_text)
    out = []
    for n in SECTIONS:
        out += [c for kind, c in split_section(secs[n]) if kind == "code"]
    return out


def transcript(outputs):
    """What a cell shows as text, as the REPL would show it: streams, each display's text/plain and
    each error's traceback (a diagnostic as relay renders it), in order (a heatmap, a picture
    beside a value shown already, is left out)."""
    parts = []
    for out in outputs:
        if out.get("output_type") == "stream":
            parts.append(out["text"])
        elif out.get("output_type") in ("display_data", "execute_result"):
            if out.get("metadata", {}).get("relay", {}).get("view") == "heatmap":
                continue
            text = out.get("data", {}).get("text/plain", "")
            parts.append(text if text.endswith("\n") else text + "\n")
        elif out.get("output_type") == "error":
            parts.append("".join(line + "\n" for line in out.get("traceback", [])))
    return "".join(parts)


def build():
    import nbformat.v4 as v4
    with open(TOUR, encoding="utf-8") as f:
        secs = sections(f.read())
    nb = v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "relay", "display_name": "Relay", "language": "relay"},
                   "language_info": {"name": "relay", "file_extension": ".rly",
                                     "mimetype": "text/x-relay", "codemirror_mode": "rust",
                                     "pygments_lexer": "rust"}}
    cells = [("markdown", INTRO)]
    for n in SECTIONS:
        cells += split_section(secs[n])
    for k, (kind, content) in enumerate(cells):
        if kind == "markdown":
            cell = v4.new_markdown_cell(content)
        else:
            cell = v4.new_code_cell(content[0])
            if "error:" in content[1]:
                cell.metadata["tags"] = ["raises-exception"]
        cell["id"] = "cell-%02d" % k
        nb.cells.append(cell)
    return nb


def main():
    relay = os.path.abspath(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "docs", "tour.ipynb")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import kernel_test
    import nbformat
    from nbclient import NotebookClient
    tmp = tempfile.mkdtemp(prefix="relay-tour-")
    kernel_test.install(kernel_test.isolate(tmp), relay)
    os.environ.pop("RELAY_BINARY", None)
    nb = build()
    NotebookClient(nb, kernel_name="relay", timeout=120, allow_errors=False).execute()
    bad = 0
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    for cell, (_, expected) in zip(code_cells, boxes()):
        got = transcript(cell.outputs)
        if got != expected:
            bad += 1
            print("cell %s shows\n%s\nbut its box in docs/tour.md\n%s" % (cell["id"], got, expected))
    if bad:
        sys.exit("%d cells differ from the tour: %s not written" % (bad, out))
    for cell in code_cells:
        cell.metadata.pop("execution", None)   # nbclient's timestamps: a new diff at every run
    nbformat.write(nb, out)
    print("wrote %s: %d cells, %d of code" % (out, len(nb.cells), len(code_cells)))


if __name__ == "__main__":
    main()
