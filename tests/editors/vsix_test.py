#!/usr/bin/env python3
"""The VS Code extension: editors/build-vsix.sh builds the .vsix, which is then read; prints TAP.

Usage: vsix_test.py EDITORS_DIR OUT_DIR

Checks: the script succeeds and prints the .vsix's path; the package holds the manifest (language
`relay` for `.rly`, the grammar `source.relay`, the language configuration, the setting
`relay.path`), each file the manifest names, the grammar byte for byte, and the bundled client;
the bundle loads outside VS Code (a stand-in `vscode` module) and exports activate/deactivate; the
manifest's VS Code engine is one that the pinned vscode-languageclient accepts; the language
configuration's patterns compile as JavaScript's and its words are Relay's names. Without node or the
npm packages (editors/install-deps.sh installs them) it is one TAP SKIP.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile


def version_tuple(text):
    return tuple(int(x) for x in re.findall(r"\d+", text)[:3])


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    editors, out = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    if not shutil.which("node"):
        print("1..0 # SKIP node is not installed")
        return 0
    if not os.path.exists(os.path.join(editors, "node_modules", ".bin", "vsce")):
        print("1..0 # SKIP the npm packages are not installed (run editors/install-deps.sh)")
        return 0
    print("1..6", flush=True)
    failed = 0

    def result(n, ok, name, detail=""):
        nonlocal failed
        failed += not ok
        print("%s %d - %s" % ("ok" if ok else "not ok", n, name))
        for line in (detail.rstrip().splitlines() if not ok else [])[:60]:
            print("# " + line)
        sys.stdout.flush()

    p = subprocess.run([os.path.join(editors, "build-vsix.sh"), out], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=300)
    lines = p.stdout.strip().splitlines()
    vsix = lines[-1] if lines else ""
    built = p.returncode == 0 and vsix.endswith(".vsix") and os.path.isfile(vsix)
    result(1, built, "build-vsix.sh builds " + os.path.basename(vsix or "the .vsix"), p.stdout)
    if not built:
        for n in range(2, 7):
            result(n, False, "(no .vsix to read)")
        return 1

    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("extension/package.json"))
        problems = []
        langs = manifest.get("contributes", {}).get("languages", [])
        grammars = manifest.get("contributes", {}).get("grammars", [])
        props = manifest.get("contributes", {}).get("configuration", {}).get("properties", {})
        if not any(l.get("id") == "relay" and ".rly" in l.get("extensions", []) for l in langs):
            problems.append("no language `relay` for .rly files")
        if not any(g.get("scopeName") == "source.relay" and g.get("language") == "relay" for g in grammars):
            problems.append("no grammar source.relay for relay")
        if props.get("relay.path", {}).get("default") != "relay":
            problems.append("no setting relay.path with the default `relay`")
        named = [manifest.get("main", "")] + [l.get("configuration", "") for l in langs] + \
                [g.get("path", "") for g in grammars]
        for path in named:
            if "extension/" + os.path.normpath(path) not in names:
                problems.append("the manifest names %s, which the package lacks" % path)
        result(2, not problems, "the manifest declares the language, the grammar and relay.path, and the "
               "package holds every file it names", "\n".join(problems) + "\npackage: " + " ".join(sorted(names)))

        with open(os.path.join(editors, "relay.tmLanguage.json"), "rb") as f:
            same = f.read() == z.read("extension/syntaxes/relay.tmLanguage.json")
        with open(os.path.join(editors, "..", "LICENSE"), "rb") as f:
            same = same and f.read() == z.read("extension/LICENSE.txt")
        result(3, same, "the packaged grammar is editors/relay.tmLanguage.json, and its license the repository's LICENSE")

    bundle = os.path.join(out, "vscode-stage", "dist", "extension.js")
    p = subprocess.run(["node", os.path.join(editors, "tests", "load_extension.js"), bundle],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    result(4, p.returncode == 0, "the bundled client loads outside VS Code and exports activate and deactivate",
           p.stdout)

    with open(os.path.join(editors, "node_modules", "vscode-languageclient", "package.json"), encoding="utf-8") as f:
        needs = json.load(f)["engines"]["vscode"]
    ours = manifest["engines"]["vscode"]
    ok = version_tuple(ours) >= version_tuple(needs)
    result(5, ok, "engines.vscode %s is one vscode-languageclient accepts (%s)" % (ours, needs))

    # VS Code reads the language configuration's patterns as JavaScript regular expressions; its
    # words (double-click, completion's range) are whole names: `%x`, `@f`, `nn.dense`, `%a.0.b`.
    check = ("const c = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));"
             "new RegExp(c.indentationRules.increaseIndentPattern); new RegExp(c.indentationRules.decreaseIndentPattern);"
             "console.log(JSON.stringify(process.argv[2].match(new RegExp(c.wordPattern, 'g'))));")
    sample = "%x + @main(nn.dense, %features.0.weight, %t.0, 1e-3f16, ?w2)"
    want = ["%x", "@main", "nn.dense", "%features.0.weight", "%t", "0", "1e-3f16", "?w2"]
    p = subprocess.run(["node", "-e", check, os.path.join(editors, "vscode", "language-configuration.json"), sample],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    try:
        words = json.loads(p.stdout)
    except ValueError:
        words = None
    result(6, p.returncode == 0 and words == want, "the language configuration's patterns compile, and its words "
           "are Relay's names", "%s\nwords of %r: %s, want %s" % (p.stdout, sample, words, want))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
