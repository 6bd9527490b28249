#!/usr/bin/env bash
# The npm packages VS Code tokenizes with (vscode-textmate, vscode-oniguruma), pinned by
# editors/test/package-lock.json, for the grammar test (`tests/suite/grammar.rs`): installed once
# under target/grammar-node. Prints that folder on success; any failure (no node or npm, the
# registry out of reach) exits non-zero so the test fails loudly rather than skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${CARGO_TARGET_DIR:-target}/grammar-node"
stamp="$dir/.pinned"
want=$(cat editors/test/package-lock.json)
if [ -d "$dir/node_modules/vscode-textmate" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    # The script itself is copied each time: it finds the packages next to it.
    cp editors/test/tokenize.mjs "$dir/"
    echo "$dir"
    exit 0
fi
for tool in node npm; do
    if ! command -v "$tool" >/dev/null; then
        echo "install-grammar-test: $tool is not installed" >&2
        exit 1
    fi
done
rm -rf "$dir"
mkdir -p "$dir"
cp editors/test/package.json editors/test/package-lock.json "$dir/"
(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
cp editors/test/tokenize.mjs "$dir/"
echo "$want" >"$stamp"
echo "$dir"
