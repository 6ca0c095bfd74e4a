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

if ! command -v nvim >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "install-deps.sh: installing Debian's neovim"
        { apt-get install -y --no-install-recommends neovim </dev/null >/dev/null 2>&1 ||
            { apt-get update </dev/null >/dev/null && \
              DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends neovim </dev/null >/dev/null; }; } ||
            { echo "install-deps.sh: apt-get could not install neovim" >&2; status=1; }
    else
        echo "install-deps.sh: neovim is missing (as root: apt-get install neovim)" >&2
        status=1
    fi
fi

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "install-deps.sh: node and npm are missing: the grammar tests and the .vsix are skipped" >&2
    exit 1
fi
stamp=$here/node_modules/.relay-lock.sha256
want=$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -x "$here/node_modules/.bin/vsce" ]; then
    echo "install-deps.sh: npm ci in editors/"
    cache=$(mktemp -d)
    if (cd "$here" && npm ci --cache "$cache" --no-progress --loglevel=error </dev/null); then
        echo "$want" >"$stamp"
    else
        echo "install-deps.sh: npm ci failed" >&2
        status=1
    fi
    rm -rf "$cache"
fi
exit $status
