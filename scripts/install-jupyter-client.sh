#!/usr/bin/env bash
# Jupyter's own Python client, pinned, for the kernel test (`tests/suite/kernel.rs`): a virtual
# environment under target/jupyter-venv, made once. Prints the venv's python on success; any
# failure (no python3, no venv module, PyPI out of reach) exits non-zero so the test fails
# loudly rather than skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
JUPYTER_CLIENT_VERSION=8.6.3
NBCLIENT_VERSION=0.10.2
NBFORMAT_VERSION=5.10.4
venv="${CARGO_TARGET_DIR:-target}/jupyter-venv"
stamp="$venv/.pinned"
want="jupyter_client==$JUPYTER_CLIENT_VERSION nbclient==$NBCLIENT_VERSION nbformat==$NBFORMAT_VERSION"
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    echo "$venv/bin/python"
    exit 0
fi
python=$(command -v python3 || true)
if [ -z "$python" ]; then
    echo "install-jupyter-client: python3 is not installed" >&2
    exit 1
fi
# Debian's python3 keeps venv apart (python3-venv); install it when it is missing.
if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >/dev/null
    $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
rm -rf "$venv"
"$python" -m venv "$venv"
# shellcheck disable=SC2086 # $want is a list of requirements
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check $want >&2
echo "$want" >"$stamp"
echo "$venv/bin/python"
