#!/usr/bin/env bash
# play/wasm/build.sh OUTDIR: builds relay.wasm and its JavaScript glue, OUTDIR/relay.js and
# OUTDIR/relay.wasm, from this checkout (docs/play.md, "Inside: relay.wasm"). It needs emscripten
# (Debian's, installed with apt-get when run as root and missing) and fetches Debian's bdwgc sources
# (apt-get source libgc, adding a deb-src line when root and none is there) to build the collector
# for WebAssembly without threads. Everything it makes besides OUTDIR is in play/wasm/build/
# (git-ignored). Run again, it rebuilds only what changed (make).
set -euo pipefail

usage="usage: play/wasm/build.sh OUTDIR"
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
build=$here/build
mkdir -p "$build"

say() { echo "play/wasm/build.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# ---------------------------------------------------------------- emscripten
if ! command -v emcc >/dev/null; then
  [ "$(id -u)" = 0 ] || die "emcc is missing: install emscripten (sudo apt-get install emscripten) and run again"
  say "installing emscripten (apt-get)"
  apt-get install -y --no-install-recommends emscripten >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends emscripten >&2; }
fi
# Debian's emscripten links with node and needs its module folder; its cache (EM_CACHE) is frozen
# and must not be moved.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
unset EM_CACHE

# ---------------------------------------------------------------- bdwgc, from Debian's sources
gc_src=$build/gc-src
if ! ls "$gc_src"/libgc_*.orig.tar.* >/dev/null 2>&1; then
  mkdir -p "$gc_src"
  say "fetching Debian's libgc sources (apt-get source libgc)"
  if ! (cd "$gc_src" && apt-get source --download-only libgc >&2); then
    [ "$(id -u)" = 0 ] || die "apt-get source libgc failed: add a deb-src line for your Debian mirror (see docs/play.md) and run again"
    list=/etc/apt/sources.list.d/relay-deb-src.sources
    say "adding $list (deb-src for bookworm) and running apt-get update"
    suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$suite" >"$list"
    apt-get update >&2
    (cd "$gc_src" && apt-get source --download-only libgc >&2)
  fi
fi
if [ ! -d "$gc_src/src" ]; then
  mkdir -p "$gc_src/src.tmp"
  tar -xf "$(ls "$gc_src"/libgc_*.orig.tar.* | head -1)" -C "$gc_src/src.tmp" --strip-components=1
  mv "$gc_src/src.tmp" "$gc_src/src"
fi

# ---------------------------------------------------------------- relay
jobs=$(nproc 2>/dev/null || echo 1)
[ "$jobs" -gt 2 ] && jobs=2
start=$(date +%s)
make -s -j"$jobs" -f "$here/wasm.mk" ROOT="$root" BUILD="$build" GC_SRC="$gc_src/src" OUT="$out"
say "built $out/relay.js and $out/relay.wasm in $(( $(date +%s) - start )) s"
