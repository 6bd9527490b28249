#!/usr/bin/env bash
# The Python package (`python/`, issue 52) in a virtual environment under target/py, with
# maturin, pytest and NumPy (nim-sequences as arrays) pinned: makes the venv once, then builds
# the extension in debug (`maturin develop`, which Cargo makes incremental) and installs it
# there. Idempotent; prints the venv's python on success. Any failure (no python3, no venv
# module, PyPI out of reach, a build error) exits non-zero.
#
#     scripts/install-python.sh && target/py/bin/python -m pytest -q python/tests
set -euo pipefail
cd "$(dirname "$0")/.."
MATURIN_VERSION=1.16.0
PYTEST_VERSION=9.2.0
NUMPY_VERSION=2.2.6
venv="${CARGO_TARGET_DIR:-target}/py"
stamp="$venv/.pinned"
want="maturin==$MATURIN_VERSION pytest==$PYTEST_VERSION numpy==$NUMPY_VERSION"
if ! [ -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    python=$(command -v python3 || true)
    if [ -z "$python" ]; then
        echo "install-python: python3 is not installed" >&2
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
fi
# Debug build (the dev profile, as `cargo build`), installed into the venv in place.
VIRTUAL_ENV="$(cd "$venv" && pwd)" "$venv/bin/maturin" develop --quiet \
    --manifest-path python/Cargo.toml >&2 || {
    echo "install-python: building the extension failed" >&2
    exit 1
}
echo "$venv/bin/python"
