#!/usr/bin/env bash
# The tools the tests use that are not Rust crates, pinned: Debian's GNU parallel (the sweep
# test runs shards under it). Does nothing when the pinned version is already there; the test
# that needs it calls this script, so `cargo test` on a fresh machine installs it.
set -euo pipefail
PARALLEL_VERSION=20221122+ds-2
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | head -1 | grep -q "${PARALLEL_VERSION%%+*}"; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
install() { $sudo apt-get install -y -qq --no-install-recommends "parallel=$PARALLEL_VERSION"; }
# A fresh machine's package lists may be stale: refresh them once if the first try fails.
install >/dev/null 2>&1 || { $sudo apt-get update -qq >/dev/null && install >/dev/null; }
parallel --version | head -1
