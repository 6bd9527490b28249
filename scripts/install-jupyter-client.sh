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
# shellcheck source=scripts/pinned-venv.sh
. scripts/pinned-venv.sh
pinned_venv install-jupyter-client "$venv" \
    "jupyter_client==$JUPYTER_CLIENT_VERSION nbclient==$NBCLIENT_VERSION nbformat==$NBFORMAT_VERSION"
echo "$venv/bin/python"
