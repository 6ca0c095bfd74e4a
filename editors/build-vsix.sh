#!/usr/bin/env bash
# Builds the VS Code extension's .vsix: esbuild bundles vscode/src/extension.js with
# vscode-languageclient into one file, which is staged with the manifest, the language
# configuration and the grammar (relay.tmLanguage.json), and @vscode/vsce packages the stage.
# The npm packages come from `npm ci` here (install-deps.sh). Nothing is written outside OUT_DIR.
#
#   editors/build-vsix.sh [OUT_DIR]     OUT_DIR defaults to build/editors at the repository's root
#
# The last line printed is the .vsix's path; `code --install-extension PATH` installs it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-$here/../build/editors}
bin=$here/node_modules/.bin
if [ ! -x "$bin/vsce" ] || [ ! -x "$bin/esbuild" ]; then
    echo "build-vsix.sh: the npm packages are missing: run editors/install-deps.sh (or npm ci in editors/)" >&2
    exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/vscode-stage
rm -rf "$stage"
mkdir -p "$stage/dist" "$stage/syntaxes"
cp "$here/vscode/package.json" "$here/vscode/language-configuration.json" "$here/vscode/README.md" "$stage/"
cp "$here/relay.tmLanguage.json" "$stage/syntaxes/"
cp "$here/../LICENSE" "$stage/LICENSE"
# VS Code 1.82 (the oldest the manifest allows) runs extensions on Node 18.
"$bin/esbuild" "$here/vscode/src/extension.js" --bundle --platform=node --format=cjs --target=node18 \
    --minify --external:vscode --outfile="$stage/dist/extension.js" --log-level=warning
version=$(node -p 'require(process.argv[1]).version' "$stage/package.json")
vsix=$out/relay-$version.vsix
rm -f "$vsix"
# The manifest names no repository: without the flag vsce would ask. The license is the
# repository's LICENSE (Apache-2.0, as meson.build and the manifest say).
(cd "$stage" && "$bin/vsce" package --no-dependencies --allow-missing-repository --out "$vsix" </dev/null)
echo "$vsix"
