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

missing=()
command -v emcc >/dev/null 2>&1 || missing+=(emscripten)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "install-deps.sh: installing Debian's ${missing[*]}"
        { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" </dev/null >/dev/null 2>&1 ||
            { apt-get update </dev/null >/dev/null && \
              DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" </dev/null >/dev/null; }; } ||
            { echo "install-deps.sh: apt-get could not install ${missing[*]}" >&2; status=1; }
    else
        echo "install-deps.sh: ${missing[*]} missing (as root: apt-get install ${missing[*]})" >&2
        status=1
    fi
fi

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "install-deps.sh: node and npm are missing: the page cannot be bundled" >&2
    exit 1
fi
stamp=$here/node_modules/.relay-lock.sha256
want=$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -x "$here/node_modules/.bin/esbuild" ]; then
    echo "install-deps.sh: npm ci in play/"
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
