# Shared by editors/install-deps.sh and play/install-deps.sh (sourced, with `status` set to 0):
# Debian packages installed when missing, and a folder's npm packages installed from its lock file.
# Each sets status=1 on a failure and says why on stderr.

# deps_apt WHO PACKAGE...: apt-get install the packages (as root; otherwise say how). WHO names
# the script in messages.
deps_apt() {
    local who=$1
    shift
    [ $# -gt 0 ] || return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "$who: $* missing (as root: apt-get install $*)" >&2
        status=1
        return
    fi
    echo "$who: installing Debian's $*"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" </dev/null >/dev/null 2>&1 ||
        { apt-get update </dev/null >/dev/null &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" </dev/null >/dev/null; }; } ||
        { echo "$who: apt-get could not install $*" >&2; status=1; }
}

# deps_npm_ci WHO DIR BIN: `npm ci` in DIR when its package-lock.json changed since the last install
# (a stamp in node_modules records it) or node_modules/.bin/BIN is missing, with a throw-away npm
# cache, so nothing is left outside node_modules. No package's install script runs (DIR/.npmrc).
deps_npm_ci() {
    local who=$1 dir=$2 bin=$3
    local stamp=$dir/node_modules/.relay-lock.sha256 want cache
    want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && [ -x "$dir/node_modules/.bin/$bin" ]; then
        return
    fi
    echo "$who: npm ci in $(basename "$dir")/"
    cache=$(mktemp -d)
    if (cd "$dir" && npm ci --cache "$cache" --no-progress --loglevel=error </dev/null); then
        echo "$want" >"$stamp"
    else
        echo "$who: npm ci failed" >&2
        status=1
    fi
    rm -rf "$cache"
}
