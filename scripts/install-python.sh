#!/usr/bin/env bash
# The Python package (`python/`, issue 52) in a virtual environment under target/py, with
# maturin, pytest, NumPy (nim-sequences as arrays) and networkx (for the docs' example and its
# test only: no dependency of the package) pinned: makes the venv once, then builds
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
NETWORKX_VERSION=3.2.1
venv="${CARGO_TARGET_DIR:-target}/py"
# shellcheck source=scripts/pinned-venv.sh
. scripts/pinned-venv.sh
pinned_venv install-python "$venv" \
    "maturin==$MATURIN_VERSION pytest==$PYTEST_VERSION numpy==$NUMPY_VERSION networkx==$NETWORKX_VERSION"
# Debug build (the dev profile, as `cargo build`), installed into the venv in place.
VIRTUAL_ENV="$(cd "$venv" && pwd)" "$venv/bin/maturin" develop --quiet \
    --manifest-path python/Cargo.toml >&2 || {
    echo "install-python: building the extension failed" >&2
    exit 1
}
echo "$venv/bin/python"
