#!/usr/bin/env bash
# Installs what the editor checks need: Debian's neovim (a real LSP client for `relay --lsp`'s smoke
# test), and the npm packages that package-lock.json pins (the grammar tests' vscode-tmgrammar-test,
# esbuild, vscode-languageclient and @vscode/vsce) into editors/node_modules with `npm ci`.
# Idempotent and quiet when everything is there: npm ci runs only when the lock changed since the
# last install (a stamp in node_modules records it), with a throw-away npm cache, so nothing is left
# outside node_modules. No package's install script runs (.npmrc). Exit status 0 iff all is present.
#   editors/install-deps.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
status=0
# shellcheck source=../.ci/deps.sh
. "$here/../.ci/deps.sh"

command -v nvim >/dev/null 2>&1 || deps_apt install-deps.sh neovim

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "install-deps.sh: node and npm are missing: the grammar tests and the .vsix are skipped" >&2
    exit 1
fi
deps_npm_ci install-deps.sh "$here" vsce
exit $status
