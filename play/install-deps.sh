#!/usr/bin/env bash
# Installs what the playground needs: Debian's emscripten (to build relay.wasm), chromium and
# chromium-driver (the browser tests drive Debian's chromium; no browser is downloaded), and the
# npm packages that package-lock.json pins (CodeMirror 6, esbuild, Graphviz in wasm,
# playwright-core) into play/node_modules with `npm ci`. Idempotent and quiet when everything is
# there: npm ci runs only when the lock changed since the last install (a stamp in node_modules),
# with a throw-away npm cache. No package's install script runs (.npmrc). Exit status 0 iff all is
# present.
#   play/install-deps.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
status=0
# shellcheck source=../.ci/deps.sh
. "$here/../.ci/deps.sh"

missing=()
command -v emcc >/dev/null 2>&1 || missing+=(emscripten)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
deps_apt install-deps.sh "${missing[@]}"

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "install-deps.sh: node and npm are missing: the page cannot be bundled" >&2
    exit 1
fi
deps_npm_ci install-deps.sh "$here" esbuild
exit $status
