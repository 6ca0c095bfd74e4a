"""TAP for the Python tests (meson reads it: `protocol : 'tap'`): report(results) prints `1..N`,
a line per check (`ok 3 - what`, `not ok 4 - what`), each failure's details as `# ` lines, and
returns the exit status, 1 when any check failed. results: (ok, name, details) triples."""


def report(results):
    print("1..%d" % len(results))
    failed = 0
    for i, (ok, name, details) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            failed += 1
            for line in str(details).splitlines():
                print("# " + line)
    return 1 if failed else 0
