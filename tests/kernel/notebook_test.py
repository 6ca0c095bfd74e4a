#!/usr/bin/env python3
"""docs/tour.ipynb run headless with the Relay kernel; every output compared with the stored one.

Usage: notebook_test.py RELAY_BINARY [NOTEBOOK]   (NOTEBOOK defaults to docs/tour.ipynb)

The kernel spec is installed into a temporary Jupyter path (kernel_test.isolate: the user's own
Jupyter configuration is never read or written) and nbclient runs the notebook as Jupyter's
"Run all" does (a cell tagged `raises-exception` may fail). Prints TAP: the notebook follows
docs/tour.md (its cells are the tour's boxes, its stored outputs show what the boxes show), then
one line per code cell: its outputs now are the stored ones, exactly (streams, text/plain,
text/html and image/svg+xml, and their metadata). When Jupyter's Python packages are missing
(run with /usr/bin/python3 on Debian: python3-ipykernel, python3-nbclient, python3-nbformat,
jupyter-client) it prints `1..0 # SKIP` and exits 0. After a change to the tour's sections:
tests/kernel/tour_notebook.py RELAY_BINARY writes the notebook again.
"""
import copy
import os
import shutil
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def normal(output):
    """An output as the comparison sees it (nbformat's own fields; execution counts left out)."""
    out = {"output_type": output["output_type"]}
    if output["output_type"] == "stream":
        out["name"], out["text"] = output["name"], output["text"]
    elif output["output_type"] in ("display_data", "execute_result"):
        out["data"] = dict(output.get("data", {}))
        out["metadata"] = dict(output.get("metadata", {}))
    elif output["output_type"] == "error":
        out["ename"], out["evalue"], out["traceback"] = output["ename"], output["evalue"], output["traceback"]
    return out


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "output %d differs:\nnow:    %r\nstored: %r" % (i, x, y)
    return "now %d outputs, stored %d:\nnow:    %r\nstored: %r" % (len(a), len(b), a, b)


def main():
    try:
        import ipykernel  # noqa: F401
        import jupyter_client  # noqa: F401
        import nbformat
        from nbclient import NotebookClient
    except ImportError as e:
        print("1..0 # SKIP Jupyter's Python packages are missing (%s): apt-get install python3-ipykernel "
              "python3-nbclient python3-nbformat jupyter-client, and run with /usr/bin/python3" % e)
        return 0
    sys.path.insert(0, HERE)
    import kernel_test
    import tour_notebook
    relay = os.path.abspath(sys.argv[1])
    path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "docs", "tour.ipynb")
    stored = nbformat.read(path, as_version=4)
    code_cells = [c for c in stored.cells if c.cell_type == "code"]
    results = []

    # The notebook follows the tour: its cells are the boxes, its outputs show what they show.
    problems = []
    boxes = tour_notebook.boxes()
    if len(boxes) != len(code_cells):
        problems.append("docs/tour.md has %d boxes in sections %s, the notebook %d code cells"
                        % (len(boxes), ", ".join(tour_notebook.SECTIONS), len(code_cells)))
    for cell, (source, expected) in zip(code_cells, boxes):
        if cell.source != source:
            problems.append("cell %s is\n%s\nbut its box in docs/tour.md is\n%s" % (cell.get("id"), cell.source, source))
        elif tour_notebook.transcript(cell.outputs) != expected:
            problems.append("cell %s stores\n%s\nbut its box in docs/tour.md shows\n%s"
                            % (cell.get("id"), tour_notebook.transcript(cell.outputs), expected))
    if problems:
        problems.append("(after a change to the tour: tests/kernel/tour_notebook.py RELAY_BINARY)")
    results.append(("the notebook follows docs/tour.md", not problems, "\n".join(problems)))

    tmp = tempfile.mkdtemp(prefix="relay-notebook-test-")
    try:
        kernel_test.install(kernel_test.isolate(tmp), relay)
        os.environ.pop("RELAY_BINARY", None)
        nb = copy.deepcopy(stored)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = []
                cell.execution_count = None
        error = None
        try:
            NotebookClient(nb, kernel_name="relay", timeout=120, allow_errors=False, startup_timeout=60,
                           resources={"metadata": {"path": tmp}}).execute()
        except Exception as e:  # noqa: BLE001 (a cell failed that should not have, or the kernel)
            error = "%s: %s" % (type(e).__name__, e)
        ran = [c for c in nb.cells if c.cell_type == "code"]
        for before, now in zip(code_cells, ran):
            a = [normal(o) for o in now.outputs]
            b = [normal(o) for o in before.outputs]
            first_line = before.source.split("\n")[0]
            details = first_difference(a, b) if a != b else ""
            if error and a != b:
                details += "\nthe run stopped: " + error
            results.append(("cell %s (%s): outputs as stored" % (before.get("id"), first_line), a == b, details))
        if error and all(ok for _, ok, _ in results):
            results.append(("the notebook runs to its end", False, error))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tap.report([(ok, what, details) for what, ok, details in results])


if __name__ == "__main__":
    sys.exit(main())
